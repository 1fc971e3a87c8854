import type { SchedulerLike, Subscription } from 'rxjs';
import type { OutputStream, ProcessEvents, ProcessHandle } from '../sources/exec/process-port.js';
import type { CompiledScript, FakeStep } from './compile-script.js';

type PipeItem = Extract<FakeStep, { type: 'data' | 'end' }>;

/** What a {@link startFakeProcess} reports to its port (`fakeExec` records it, with the time). */
export type FakeProcessNote =
  | { readonly type: 'pause' | 'resume' | 'endInput' | 'destroy' }
  | { readonly type: 'kill'; readonly signal: NodeJS.Signals }
  | { readonly type: 'input'; readonly bytes: Uint8Array }
  | { readonly type: 'exit'; readonly exitCode: number | null; readonly signal: string | null };

/**
 * Plays one spawn of a compiled script on `scheduler` and returns its {@link ProcessHandle}.
 *
 * The process has a clock of its own that runs with virtual time except while it is blocked: a
 * write while nobody reads goes into the pipes if they hold fewer than `pipeCapacity` writes,
 * otherwise the process blocks on it (nothing of its script happens) until `resume()` has
 * delivered what the pipes held. An exit does not wait for the reader. A kill it does not ignore
 * ends it at once: what the pipes hold is still delivered, then both pipes end. No promises, no
 * real timers. Internal to `src/testing`.
 */
export function startFakeProcess(
  script: CompiledScript,
  events: ProcessEvents,
  scheduler: SchedulerLike,
  pid: number,
  note: (entry: FakeProcessNote) => void,
): ProcessHandle {
  const started = script.spawnError === undefined;
  const process = new FakeProcess(script, events, scheduler, started ? pid : undefined, note);
  // Even what is due at once comes later, on the scheduler, as with a real child.
  if (started) process.arm();
  return process;
}

/** The state of one played spawn: the script's cursor and clock, the pipes and what they hold. */
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
