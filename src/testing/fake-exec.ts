import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';
import { isSchedulerLike } from '../core/is-scheduler-like.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { readOption } from '../core/read-option.js';
import type {
  OutputStream,
  ProcessEvents,
  ProcessHandle,
  ProcessPort,
  SpawnRequest,
} from '../sources/exec/process-port.js';
import {
  type CompiledScript,
  compileScript,
  type FakeProcessScript,
  type FakeStep,
} from './compile-script.js';

/** Options of {@link fakeExec}. Validated when `fakeExec` is called. */
export interface FakeExecOptions {
  /** The clock the script plays on. Default `asyncScheduler` (virtual inside `TestScheduler.run`). */
  readonly scheduler?: SchedulerLike;
  /** The pid of the first spawn; each later spawn gets the next one. Default `4242`. */
  readonly pid?: number;
}

/** One thing that happened to a fake process, at virtual time `at`. */
export type FakeExecRecord = { readonly at: number; readonly pid: number } & (
  | { readonly type: 'spawn'; readonly request: SpawnRequest }
  | { readonly type: 'pause' | 'resume' | 'endInput' | 'destroy' }
  | { readonly type: 'kill'; readonly signal: NodeJS.Signals }
  | { readonly type: 'input'; readonly text: string; readonly bytes: Uint8Array }
  | { readonly type: 'exit'; readonly exitCode: number | null; readonly signal: string | null }
);

/**
 * A scripted {@link ProcessPort} and the record of what was done to its processes: what
 * {@link fakeExec} returns.
 */
export interface FakeExec extends ProcessPort {
  /** Everything, in order: spawns, pauses and resumes by demand, kills, stdin writes, exits, releases. */
  readonly records: readonly FakeExecRecord[];
  /** The spawn requests (`file`, `args`, `cwd`, `env`, `hasInput`, …). */
  readonly spawns: readonly SpawnRequest[];
  /** Every `killGroup` call, with its time and signal (also the ones the process survived). */
  readonly kills: readonly { readonly at: number; readonly signal: NodeJS.Signals }[];
  /** The times the reading of the pipes was paused (a consumer's demand). */
  readonly pauses: readonly number[];
  /** The times the reading of the pipes was resumed. */
  readonly resumes: readonly number[];
  /** Everything written to stdin, decoded as UTF-8. */
  readonly input: string;
  /** Whether stdin was closed (by the last spawn). */
  readonly inputEnded: boolean;
  /** How many spawned processes (or their groups) are still alive. */
  readonly running: number;
}

const decoder = new TextDecoder();

/**
 * A fake process for `exec`: as its `port` (`exec(file, args, { port: fake, scheduler })`), the
 * very same `exec` code path runs a scripted process in virtual time. Each spawn plays `script`
 * from its start; a paused reader holds its output and the process blocks on full pipes; what the
 * code under test did to it is recorded with virtual times. The script is validated now. No
 * promises, no real timers: use it inside `TestScheduler.run` or give a virtual `scheduler`.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * import { fakeExec } from 'sluice/testing';
 * testScheduler.run(({ expectObservable, flush }) => {
 *   const fake = fakeExec({ stdout: '-a-b-c', exit: 'hang' });
 *   expectObservable(exec('make', [], { port: fake, killSignal: 'SIGINT' }), '----!').toBe('-a-b', values);
 *   flush();
 *   expect(fake.kills).toEqual([{ at: 4, signal: 'SIGINT' }]);
 * });
 * ```
 */
export function fakeExec(script: FakeProcessScript = {}, options: FakeExecOptions = {}): FakeExec {
  const compiled = compileScript(script);
  if (typeof options !== 'object' || options === null)
    throw optionError('options', 'an object', options, 'argument');
  const scheduler = readOption(options, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler);
  const firstPid = readInteger(options, 'pid', 4242, { min: 1 });
  const records: FakeExecRecord[] = [];
  const handles: ProcessHandle[] = [];
  const of = <K extends FakeExecRecord['type']>(type: K) =>
    records.filter((record) => record.type === type) as (FakeExecRecord & { readonly type: K })[];

  return {
    spawn(request, events) {
      const pid = firstPid + handles.length;
      const record = (entry: Record<string, unknown>) =>
        records.push({ at: scheduler.now(), pid, ...entry } as FakeExecRecord);
      record({ type: 'spawn', request });
      const { spawnError } = compiled;
      const handle = new FakeProcess(compiled, events, scheduler, spawnError ? undefined : pid, (note) =>
        record(note.type === 'input' ? { ...note, text: decoder.decode(note.bytes) } : note),
      );
      handles.push(handle);
      // Even what is due at once comes later, on the scheduler, as with a real child.
      if (spawnError === undefined) handle.arm();
      else {
        const error = new Error(`spawn ${request.file} ${spawnError}`);
        events.spawnError(Object.assign(error, { code: spawnError, path: request.file }));
      }
      return handle;
    },
    get records() {
      return records;
    },
    get spawns() {
      return of('spawn').map((entry) => entry.request);
    },
    get kills() {
      return of('kill').map(({ at, signal }) => ({ at, signal }));
    },
    get pauses() {
      return of('pause').map((entry) => entry.at);
    },
    get resumes() {
      return of('resume').map((entry) => entry.at);
    },
    get input() {
      return of('input').reduce((text, entry) => text + entry.text, '');
    },
    get inputEnded() {
      const last = of('spawn').at(-1);
      return last !== undefined && of('endInput').some((entry) => entry.pid === last.pid);
    },
    get running() {
      return handles.filter((handle) => handle.groupAlive()).length;
    },
  };
}

type PipeItem = Extract<FakeStep, { type: 'data' | 'end' }>;

/** What a {@link FakeProcess} reports to its port (`fakeExec` records it, with the time). */
type FakeProcessNote =
  | { readonly type: 'pause' | 'resume' | 'endInput' | 'destroy' }
  | { readonly type: 'kill'; readonly signal: NodeJS.Signals }
  | { readonly type: 'input'; readonly bytes: Uint8Array }
  | { readonly type: 'exit'; readonly exitCode: number | null; readonly signal: string | null };

/**
 * One spawn of a compiled script. Its clock runs with virtual time except while it is blocked: a
 * write while nobody reads goes into the pipes if they hold fewer than `pipeCapacity` writes,
 * otherwise the process blocks on it until `resume()` has delivered what the pipes held. An exit
 * does not wait for the reader. A kill it does not ignore ends it at once: what the pipes hold is
 * still delivered, then both pipes end.
 */
class FakeProcess implements ProcessHandle {
  readonly #open = new Set<OutputStream>(['stdout', 'stderr']);
  readonly #held: PipeItem[] = [];
  #heldWrites = 0;
  #cursor = 0;
  #elapsed = 0;
  #alive = true;
  #blocked = false;
  #readerPaused = false;
  #destroyed = false;
  #inputEnded = false;
  #flushing = false;
  #timer: Subscription | undefined;

  constructor(
    private readonly script: CompiledScript,
    private readonly events: ProcessEvents,
    private readonly scheduler: SchedulerLike,
    readonly pid: number | undefined,
    private readonly note: (entry: FakeProcessNote) => void,
  ) {}

  pause(): void {
    if (this.#readerPaused) return;
    this.#readerPaused = true;
    this.note({ type: 'pause' });
  }

  resume(): void {
    if (!this.#readerPaused) return;
    this.#readerPaused = false;
    this.note({ type: 'resume' });
    this.#flush();
  }

  killGroup(signal: NodeJS.Signals): void {
    this.note({ type: 'kill', signal });
    if (!this.groupAlive() || (signal !== 'SIGKILL' && this.script.ignores.includes(signal))) return;
    this.#disarm();
    this.#cursor = this.script.steps.length;
    this.#blocked = false;
    if (this.#alive) this.#exit(null, signal);
    for (const stream of [...this.#open]) this.#write({ frame: this.#elapsed, type: 'end', stream });
  }

  /**
   * Writes scripted after the exit come from the rest of the group (a grandchild holding the pipes).
   * A spawn that failed has no pid and no group; it still records what exec does with it.
   */
  groupAlive(): boolean {
    return this.pid !== undefined && (this.#alive || this.#cursor < this.script.steps.length);
  }

  writeInput(bytes: Uint8Array, callback: (error?: Error | null) => void): void {
    this.note({ type: 'input', bytes });
    const closed = !this.#alive || this.#inputEnded;
    callback(closed ? new Error('write EPIPE: the fake process closed its stdin') : null);
  }

  endInput(): void {
    if (this.#inputEnded) return;
    this.#inputEnded = true;
    this.note({ type: 'endInput' });
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#disarm();
    this.#held.length = 0;
    this.note({ type: 'destroy' });
  }

  /** Schedules the next step of the script, unless one is scheduled or the process cannot go on. */
  arm(): void {
    const next = this.script.steps[this.#cursor];
    if (next === undefined || this.#blocked || this.#destroyed || this.#timer !== undefined) return;
    this.#timer = this.scheduler.schedule(() => {
      this.#timer = undefined;
      this.#elapsed = next.frame;
      this.#run();
    }, next.frame - this.#elapsed);
  }

  #disarm(): void {
    this.#timer?.unsubscribe();
    this.#timer = undefined;
  }

  /** Plays the steps due by now, until one blocks on full pipes. */
  #run(): void {
    const { steps, pipeCapacity } = this.script;
    while (this.#cursor < steps.length && !this.#blocked && !this.#destroyed) {
      const step = steps[this.#cursor] as FakeStep;
      if (step.frame > this.#elapsed) break;
      if (step.type === 'data' && !this.#reading()) {
        if (this.#heldWrites >= pipeCapacity) {
          this.#blocked = true;
          return;
        }
        this.#heldWrites += 1;
      }
      this.#cursor += 1;
      if (step.type === 'exit') this.#exit(step.exitCode, step.signal);
      else this.#write(step);
    }
    this.arm();
  }

  #reading(): boolean {
    return !this.#readerPaused && !this.#destroyed && this.#held.length === 0;
  }

  #deliver(item: PipeItem): void {
    if (this.#destroyed) return;
    if (item.type === 'data') this.events.data(item.stream, item.bytes);
    else this.events.end(item.stream);
  }

  #write(item: PipeItem): void {
    if (item.type === 'end') this.#open.delete(item.stream);
    if (this.#reading()) this.#deliver(item);
    else this.#held.push(item);
  }

  #exit(exitCode: number | null, signal: string | null): void {
    this.#alive = false;
    this.note({ type: 'exit', exitCode, signal });
    if (!this.#destroyed) this.events.exit({ exitCode, signal });
  }

  /** Delivers what the pipes held while the reader was paused; a blocked process goes on. */
  #flush(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      while (this.#held.length > 0 && !this.#readerPaused && !this.#destroyed) {
        const item = this.#held.shift() as PipeItem;
        if (item.type === 'data') this.#heldWrites -= 1;
        this.#deliver(item);
      }
    } finally {
      this.#flushing = false;
    }
    if (this.#blocked && this.#reading()) {
      this.#blocked = false;
      this.#run();
    }
  }
}
