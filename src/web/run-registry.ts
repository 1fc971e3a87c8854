import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalize, type MonoTypeOperatorFunction, type Observable, type Subscription, tap } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import type { RunStore } from '../runs/run-store.js';
import { type RunSseEndpoint, runSseEndpoint } from '../runs/sse/run-sse-endpoint.js';
import { toRunStore } from '../runs/to-run-store.js';
import { RegistryEntry, type RegistryEntryHooks } from './registry-entry.js';
import { RunLimitError } from './run-limit-error.js';
import { RunLogFile } from './run-log-file.js';
import {
  type RunRegistryConfig,
  type RunRegistryOptions,
  readRunRegistryOptions,
} from './run-registry-options.js';

/** A run id the registry accepts: a store's run id (no `/`), not `.` or `..`. */
const ID = /^(?!\.{1,2}$)[A-Za-z0-9._:-]{1,200}$/;

/**
 * The runs a web server shows. Each lives in the registry's **run store** — its own
 * `MemoryRunStore` by default, or a store shared by several servers (a `RedisRunStore`): then
 * every server shows, resumes and cancels every run, whichever started it.
 *
 * A run this registry starts ({@link start}, or {@link publish} for a pipeline of the caller's)
 * is **held**: its full output is spooled to a log file, it is followed by any number of viewers,
 * and it is **freed** once it has ended and its last viewer has left for `retainMs` (its viewers
 * dropped, its log file deleted, the run forgotten — and dropped from the registry's own memory
 * store). Limits: `maxRuns` held runs not yet ended (`start` throws a `RUN_LIMIT`
 * {@link RunLimitError} past it), `maxViewers` per run, `maxFinishedRuns` ended runs kept (the
 * oldest are freed first). A run of a shared store that another server started is found with
 * {@link find}. See `docs/web.md`.
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

  /** The checked settings. */
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

  /**
   * The run with this id: a held one, or one the store has that another server (sharing it)
   * started — shown with the label its writer gave (`RunInfo.label`) as its command. `undefined`
   * when neither has it.
   */
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
   * Starts following `source` as a new held run: subscribes it now (once), publishes its events
   * to the store, spools its `stdout`/`stderr` contents to the run's log file, and holds it until
   * it is freed. `command` is what the page shows; `id` (1–200 letters, digits, `.`, `_`, `:`,
   * `-`) defaults to a random one.
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
   * Holds a new run whose events the caller's own pipeline produces and consumes: returns the run
   * and the operator to pipe its events through (they pass through unchanged, with their demand;
   * see `toRunStore`). Subscribe the operator once. `sluice exec --web` uses it so that the
   * terminal stays the run's primary consumer. Same options, limits and errors as {@link start}.
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
   * Cancels every held run that has not ended (`by: 'server'`), drops every viewer and frees
   * every run; deletes the log folder if the registry made it. Resolves once the cancels have
   * reached the store (at once with the memory store).
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
