import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  asyncScheduler,
  finalize,
  type MonoTypeOperatorFunction,
  type Observable,
  type SchedulerLike,
  type Subscription,
  tap,
} from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { MemoryRunStore } from '../runs/memory-run-store.js';
import type { RunStore } from '../runs/run-store.js';
import type { ReplayBounds } from '../runs/sse/replay-log.js';
import { type RunSseEndpoint, runSseEndpoint } from '../runs/sse/run-sse-endpoint.js';
import { toRunStore } from '../runs/to-run-store.js';
import { RegistryEntry, type RegistryEntryHooks } from './registry-entry.js';
import { RunLimitError } from './run-limit-error.js';
import { RunLogFile } from './run-log-file.js';

/** A run id the registry accepts: a store's run id (no `/`), not `.` or `..`. */
const ID = /^(?!\.{1,2}$)[A-Za-z0-9._:-]{1,200}$/;

/**
 * The runs a web server shows, living in its run store: its own `MemoryRunStore`, or one shared
 * by several servers, where each shows, resumes and cancels every run ({@link find}). A run it
 * starts is **held** (its output spooled to a log file) and freed `retainMs` after it ended and
 * its last viewer left. Limits and retention: docs/web.md, "Retention and limits (the run registry)".
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * import { RunRegistry, startWebServer } from 'sluice/web';
 *
 * const registry = new RunRegistry({ maxRuns: 4, retainMs: 60_000 });
 * const run = registry.start(exec('make', ['-j8'], { reject: false }), { command: 'make -j8' });
 * const server = await startWebServer({ registry });
 * console.log(`open ${server.url}`); // the page of the newest run, with its access token
 * ```
 */
export class RunRegistry {
  readonly #config: RunRegistryConfig;
  readonly #endpoint: RunSseEndpoint;
  readonly #runs = new Map<string, RegistryEntry>();
  /** Runs of the store held elsewhere, while they have viewers here. */
  readonly #followed = new Map<string, RegistryEntry>();
  readonly #subscriptions = new Map<RegistryEntry, Subscription>();
  readonly #timers = new Map<RegistryEntry, Subscription>();
  #logDir: string | undefined;
  #ownsLogDir = false;
  #closed = false;

  constructor(options?: RunRegistryOptions) {
    this.#config = readRunRegistryOptions(options);
    this.#endpoint = runSseEndpoint(this.#config.store, { scheduler: this.#config.scheduler });
  }

  get config(): RunRegistryConfig {
    return this.#config;
  }

  get store(): RunStore {
    return this.#config.store;
  }

  /** How many runs are held (running and ended). */
  get size(): number {
    return this.#runs.size;
  }

  /** How many held runs have not ended. */
  get running(): number {
    let count = 0;
    for (const run of this.#runs.values()) if (!run.ended) count += 1;
    return count;
  }

  /** The held runs, oldest first. */
  [Symbol.iterator](): IterableIterator<RegistryEntry> {
    return this.#runs.values();
  }

  /** The held run with this id, if it is still held. */
  get(id: string): RegistryEntry | undefined {
    return this.#runs.get(id);
  }

  /** The most recently started run still held. */
  latest(): RegistryEntry | undefined {
    let last: RegistryEntry | undefined;
    for (const run of this.#runs.values()) last = run;
    return last;
  }

  /** The run with this id: a held one, or one another server sharing the store started (its label as command). */
  async find(id: string): Promise<RegistryEntry | undefined> {
    const known = this.#runs.get(id) ?? this.#followed.get(id);
    if (known !== undefined || this.#closed || !ID.test(id)) return known;
    const info = await this.#config.store.info(id);
    const raced = this.#runs.get(id) ?? this.#followed.get(id);
    if (raced !== undefined || info === undefined) return raced;
    const now = this.#config.scheduler.now();
    const run = new RegistryEntry(
      { id, command: info.label ?? '', startedAt: info.startedAt ?? now, held: false },
      undefined,
      this.#hooks(),
    );
    if (info.state === 'ended') run.markEnded(now);
    return run;
  }

  /**
   * Subscribes `source` now as a new held run: publishes its events to the store and spools their
   * `stdout`/`stderr` to the log. `command` is what the page shows; `id` defaults to a random one.
   *
   * @throws RunLimitError (code `RUN_LIMIT`) when `maxRuns` runs have not ended yet
   * @throws TypeError for a bad option, a taken id, or a closed registry
   */
  start(
    source: Observable<ChunkEvent<unknown>>,
    options: { command?: string; id?: string } = {},
  ): RegistryEntry {
    if (typeof source?.subscribe !== 'function') {
      throw optionError('source', 'an Observable', source, 'argument');
    }
    const { run, operator } = this.publish(options);
    // A failure is the run's (its viewers get it); the registry needs no more than the end.
    this.#subscriptions.set(run, source.pipe(operator).subscribe({ error: () => {} }));
    return run;
  }

  /**
   * Holds a new run that the caller's own pipeline produces and consumes: returns its entry and the
   * operator to pipe its events through once (unchanged, with their demand; see `toRunStore`). Same
   * options, limits and errors as {@link start}.
   */
  publish<T extends ChunkEvent<unknown>>(
    options: { command?: string; id?: string } = {},
  ): { run: RegistryEntry; operator: MonoTypeOperatorFunction<T> } {
    if (this.#closed) throw new TypeError('This run registry is closed');
    if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
    rejectUnknownOptions(options, ['command', 'id']);
    const { command = '', id = randomBytes(6).toString('hex') } = options;
    if (typeof command !== 'string') throw optionError('command', 'a string', command);
    if (typeof id !== 'string' || !ID.test(id)) {
      throw optionError('id', 'a string of 1 to 200 letters, digits, `.`, `_`, `:` or `-`', id);
    }
    if (this.#runs.has(id)) throw new TypeError(`A run with id \`${id}\` is already held`);
    if (this.running >= this.#config.maxRuns) {
      throw new RunLimitError({ limit: 'maxRuns', max: this.#config.maxRuns });
    }
    const log = this.#openLog(id);
    const run = new RegistryEntry(
      { id, command, startedAt: this.#config.scheduler.now(), held: true },
      log,
      this.#hooks(),
    );
    this.#runs.set(id, run);
    const label = command === '' ? {} : { label: command };
    const operator: MonoTypeOperatorFunction<T> = (source) =>
      source.pipe(
        tap((event) => {
          if (event.kind === 'stdout' || event.kind === 'stderr') log?.write(event.content);
        }),
        toRunStore<T>(this.#config.store, id, label),
        // The run is over once its final event is in the store (toRunStore appended it), or its
        // failure (the output errors), or it was unsubscribed (toRunStore ended it as cancelled).
        tap((event) => {
          if (event.isFinal) this.#ended(run);
        }),
        finalize(() => {
          this.#subscriptions.delete(run);
          this.#ended(run);
        }),
      );
    return { run, operator };
  }

  /**
   * Cancels every held run not ended (`by: 'server'`), drops every viewer, frees every run and
   * deletes the log folder it made. Resolves once the cancels have reached the store.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const cancels: Promise<unknown>[] = [];
    for (const run of this.#runs.values()) {
      if (!run.ended) cancels.push(run.cancel('server').catch(() => false));
    }
    for (const run of [...this.#followed.values()]) run.disconnectViewers();
    this.#followed.clear();
    await Promise.all(cancels);
    for (const run of [...this.#runs.values()]) this.#free(run);
    if (this.#ownsLogDir && this.#logDir !== undefined)
      rmSync(this.#logDir, { recursive: true, force: true });
  }

  #hooks(): RegistryEntryHooks {
    return {
      store: this.#config.store,
      endpoint: this.#endpoint,
      maxViewers: this.#config.maxViewers,
      viewersChanged: (changed) => this.#viewersChanged(changed),
    };
  }

  #openLog(id: string): RunLogFile | undefined {
    const dir = this.#config.logDir;
    if (dir === false) return undefined;
    if (this.#logDir === undefined) {
      this.#logDir = dir ?? mkdtempSync(join(tmpdir(), 'sluice-runs-'));
      this.#ownsLogDir = dir === undefined;
    }
    return new RunLogFile(join(this.#logDir, `${id}.log`));
  }

  #ended(run: RegistryEntry): void {
    if (run.endedAt !== undefined || run.freed) return;
    run.markEnded(this.#config.scheduler.now());
    void run.log?.end();
    this.#retain(run);
    this.#trimFinished();
  }

  #viewersChanged(run: RegistryEntry): void {
    if (!run.held) {
      if (run.viewers > 0 && !this.#closed) this.#followed.set(run.id, run);
      else if (this.#followed.get(run.id) === run) this.#followed.delete(run.id);
      return;
    }
    if (run.viewers > 0) {
      this.#timers.get(run)?.unsubscribe();
      this.#timers.delete(run);
    } else this.#retain(run);
  }

  /** Schedules freeing an ended run that has no viewer. */
  #retain(run: RegistryEntry): void {
    if (run.freed || run.endedAt === undefined || run.viewers > 0 || this.#timers.has(run)) return;
    this.#timers.set(
      run,
      this.#config.scheduler.schedule(() => this.#free(run), this.#config.retainMs),
    );
  }

  /** Frees the oldest ended runs past `maxFinishedRuns`, those without viewers first. */
  #trimFinished(): void {
    const finished = [...this.#runs.values()].filter((run) => run.endedAt !== undefined);
    let excess = finished.length - this.#config.maxFinishedRuns;
    if (excess <= 0) return;
    const order = [
      ...finished.filter((run) => run.viewers === 0),
      ...finished.filter((run) => run.viewers > 0),
    ];
    for (const run of order) {
      if (excess <= 0) break;
      this.#free(run);
      excess -= 1;
    }
  }

  #free(run: RegistryEntry): void {
    if (run.freed) return;
    run.markFreed();
    this.#timers.get(run)?.unsubscribe();
    this.#timers.delete(run);
    this.#subscriptions.get(run)?.unsubscribe(); // a run not ended by then ends as cancelled
    this.#subscriptions.delete(run);
    this.#runs.delete(run.id);
    run.disconnectViewers();
    run.log?.remove();
    this.#config.ownStore?.delete(run.id);
  }
}

/** Options of a {@link RunRegistry}: its limits and its retention (docs/web.md). */
export interface RunRegistryOptions {
  /** Runs that have not ended, at most. Default `8`. */
  readonly maxRuns?: number;
  /** Viewers (open SSE connections) of one run, at most. Default `500`. */
  readonly maxViewers?: number;
  /** Ended runs kept for viewers and downloads, at most (the oldest are freed first). Default `16`. */
  readonly maxFinishedRuns?: number;
  /** An ended run with no viewer is freed this long after its last viewer left, in ms. Default `300_000`. */
  readonly retainMs?: number;
  /**
   * Bounds of each run's replay log in the registry's own memory store. Defaults:
   * `maxEvents: 100_000`, `maxBytes: 16 MiB`. Not with `store` (that store has its own bounds).
   */
  readonly replay?: { readonly maxEvents?: number; readonly maxBytes?: number };
  /** Folder of the full-log files (`<id>.log`); `false`: no full log, no download. Default: a new temp folder. */
  readonly logDir?: string | false;
  /**
   * Where runs live: a store shared with other servers (a `RedisRunStore`: any of them shows,
   * resumes and cancels any run). Default: a `MemoryRunStore` of this registry's own.
   */
  readonly store?: RunStore;
  /** The clock of retention. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** The checked settings of a {@link RunRegistry}, every field filled in. */
export interface RunRegistryConfig {
  readonly maxRuns: number;
  readonly maxViewers: number;
  readonly maxFinishedRuns: number;
  readonly retainMs: number;
  readonly replay: ReplayBounds;
  readonly logDir: string | false | undefined;
  readonly store: RunStore;
  /** Whether `store` is the registry's own memory store (which it then empties as it frees runs). */
  readonly ownStore: MemoryRunStore | undefined;
  readonly scheduler: SchedulerLike;
}

const KNOWN = [
  'maxRuns',
  'maxViewers',
  'maxFinishedRuns',
  'retainMs',
  'replay',
  'logDir',
  'store',
  'scheduler',
];

/** Checks {@link RunRegistryOptions} by hand (a `TypeError` naming a bad one) and fills in the defaults. */
function readRunRegistryOptions(options: RunRegistryOptions = {}): RunRegistryConfig {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, KNOWN);
  const replay = options.replay ?? {};
  if (typeof replay !== 'object' || replay === null) throw optionError('replay', 'an object', replay);
  rejectUnknownOptions(replay, ['maxEvents', 'maxBytes'], 'replay.');
  const { logDir, store, scheduler = asyncScheduler } = options;
  if (logDir !== undefined && logDir !== false && (typeof logDir !== 'string' || logDir === '')) {
    throw optionError('logDir', 'a folder path or false', logDir);
  }
  if (
    store !== undefined &&
    (typeof store !== 'object' ||
      store === null ||
      typeof store.openWriter !== 'function' ||
      typeof store.read !== 'function')
  ) {
    throw optionError('store', 'a RunStore', store);
  }
  if (store !== undefined && options.replay !== undefined) {
    // `replay` bounds the registry's own memory store; a given store has its own bounds.
    throw optionError('replay', 'absent when a `store` is given (bound the store itself)', options.replay);
  }
  if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
    throw optionError('scheduler', 'a SchedulerLike', scheduler);
  }
  const bounds = {
    maxEvents: readInteger(replay, 'maxEvents', 100_000, { min: 1, prefix: 'replay.' }),
    maxBytes: readInteger(replay, 'maxBytes', 16 * 1024 * 1024, { min: 1, prefix: 'replay.' }),
  };
  const config = {
    maxRuns: readInteger(options, 'maxRuns', 8, { min: 1 }),
    maxViewers: readInteger(options, 'maxViewers', 500, { min: 1 }),
    maxFinishedRuns: readInteger(options, 'maxFinishedRuns', 16),
    retainMs: readInteger(options, 'retainMs', 300_000, { max: MAX_DELAY_MS }),
    replay: bounds,
    logDir,
    scheduler,
  };
  if (store !== undefined) return { ...config, store, ownStore: undefined };
  // The registry frees its runs itself (retainMs after their last viewer left): no store retention.
  const own = new MemoryRunStore({ ...bounds, retainMs: Number.MAX_SAFE_INTEGER, scheduler });
  return { ...config, store: own, ownStore: own };
}
