import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalize, type Observable, type Subscription, tap } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { RunLimitError } from './run-limit-error.js';
import { RunLogFile } from './run-log-file.js';
import {
  type RunRegistryConfig,
  type RunRegistryOptions,
  readRunRegistryOptions,
} from './run-registry-options.js';
import { WebRun } from './web-run.js';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The runs a web server shows: each started from an Observable of chunk events (an `exec` run,
 * say), kept with its replay log (a {@link RunStream}: `toServerSentEvents` by default) and its
 * full log file, followed by any number of viewers, and **freed** once it has ended and its last
 * viewer has left for `retainMs` (the stream's viewers dropped, the log file deleted, the run
 * forgotten). Limits: `maxRuns` runs not yet ended (`start` throws a `RUN_LIMIT`
 * {@link RunLimitError} past it), `maxViewers` per run, `maxFinishedRuns` ended runs kept (the
 * oldest are freed first). See `docs/web.md`.
 *
 * The run's source is subscribed at once (the run goes on with no viewer) and only once: every
 * viewer, every reload, every tab follows the same run.
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
  readonly #runs = new Map<string, WebRun>();
  readonly #timers = new Map<WebRun, Subscription>();
  #logDir: string | undefined;
  #ownsLogDir = false;
  #closed = false;

  constructor(options?: RunRegistryOptions) {
    this.#config = readRunRegistryOptions(options);
  }

  /** The checked settings. */
  get config(): RunRegistryConfig {
    return this.#config;
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
  [Symbol.iterator](): IterableIterator<WebRun> {
    return this.#runs.values();
  }

  /** The run with this id, if it is still held. */
  get(id: string): WebRun | undefined {
    return this.#runs.get(id);
  }

  /** The most recently started run still held. */
  latest(): WebRun | undefined {
    let last: WebRun | undefined;
    for (const run of this.#runs.values()) last = run;
    return last;
  }

  /**
   * Starts following `source` as a new run: subscribes it now (once), spools its `stdout`/`stderr`
   * contents to the run's log file, and holds it until it is freed. `command` is what the page
   * shows; `id` (letters, digits, `_`, `-`) defaults to a random one.
   *
   * @throws RunLimitError (code `RUN_LIMIT`) when `maxRuns` runs have not ended yet
   * @throws TypeError for a bad option, a taken id, or a closed registry
   */
  start(source: Observable<ChunkEvent<unknown>>, options: { command?: string; id?: string } = {}): WebRun {
    if (this.#closed) throw new TypeError('This run registry is closed');
    if (typeof source?.subscribe !== 'function')
      throw optionError('source', 'an Observable', source, 'argument');
    if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
    rejectUnknownOptions(options, ['command', 'id']);
    const { command = '', id = randomBytes(6).toString('hex') } = options;
    if (typeof command !== 'string') throw optionError('command', 'a string', command);
    if (typeof id !== 'string' || !ID.test(id)) {
      throw optionError('id', 'a string of 1 to 64 letters, digits, `_` or `-`', id);
    }
    if (this.#runs.has(id)) throw new TypeError(`A run with id \`${id}\` is already held`);
    if (this.running >= this.#config.maxRuns) {
      throw new RunLimitError({ limit: 'maxRuns', max: this.#config.maxRuns });
    }
    const log = this.#openLog(id);
    let run: WebRun | undefined;
    const followed = source.pipe(
      tap((event) => {
        if (event.kind === 'stdout' || event.kind === 'stderr') log?.write(event.content);
      }),
      // The stream unsubscribes its source when the run ends (final event, failure or cancel;
      // cancel appends its sentinel right after): look once that has happened.
      finalize(() => queueMicrotask(() => run && this.#checkEnded(run))),
    );
    const stream = this.#config.createStream(followed, this.#config.replay);
    run = new WebRun({ id, command, startedAt: this.#config.scheduler.now() }, stream, log, {
      maxViewers: this.#config.maxViewers,
      viewersChanged: (changed) => this.#viewersChanged(changed),
    });
    this.#runs.set(id, run);
    stream.start();
    return run;
  }

  /**
   * Cancels every run that has not ended (`by: 'server'`), drops every viewer and frees every
   * run; deletes the log folder if the registry made it.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const run of [...this.#runs.values()]) {
      run.stream.cancel('cancelled', { by: 'server' });
      this.#free(run);
    }
    if (this.#ownsLogDir && this.#logDir !== undefined)
      rmSync(this.#logDir, { recursive: true, force: true });
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

  #checkEnded(run: WebRun): void {
    if (!run.ended || run.endedAt !== undefined || run.freed) return;
    run.markEnded(this.#config.scheduler.now());
    void run.log?.end();
    this.#retain(run);
    this.#trimFinished();
  }

  #viewersChanged(run: WebRun): void {
    if (run.viewers > 0) {
      this.#timers.get(run)?.unsubscribe();
      this.#timers.delete(run);
    } else {
      if (run.ended) this.#checkEnded(run); // a viewer may see the end before the registry does
      this.#retain(run);
    }
  }

  /** Schedules freeing an ended run that has no viewer. */
  #retain(run: WebRun): void {
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

  #free(run: WebRun): void {
    if (run.freed) return;
    run.markFreed();
    this.#timers.get(run)?.unsubscribe();
    this.#timers.delete(run);
    this.#runs.delete(run.id);
    run.stream.disconnectClients();
    run.log?.remove();
  }
}
