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
 *
 * @example
 * ```ts
 * const handle = startFakeProcess(compileScript({ stdout: '-a|' }), events, scheduler, 4242, note);
 * ```
 */
export function startFakeProcess(
  script: CompiledScript,
  events: ProcessEvents,
  scheduler: SchedulerLike,
  pid: number,
  note: (entry: FakeProcessNote) => void,
): ProcessHandle {
  const { steps } = script;
  const open = new Set<OutputStream>(['stdout', 'stderr']);
  const held: PipeItem[] = [];
  let heldWrites = 0;
  let cursor = 0;
  let elapsed = 0;
  let alive = true;
  let blocked = false;
  let readerPaused = false;
  let destroyed = false;
  let inputEnded = false;
  let flushing = false;
  let timer: Subscription | undefined;

  const reading = (): boolean => !readerPaused && !destroyed && held.length === 0;
  const deliver = (item: PipeItem): void => {
    if (destroyed) return;
    if (item.type === 'data') events.data(item.stream, item.bytes);
    else events.end(item.stream);
  };
  const write = (item: PipeItem): void => {
    if (item.type === 'end') open.delete(item.stream);
    if (reading()) deliver(item);
    else held.push(item);
  };
  const exit = (exitCode: number | null, signal: string | null): void => {
    alive = false;
    note({ type: 'exit', exitCode, signal });
    if (!destroyed) events.exit({ exitCode, signal });
  };

  // Writes scripted after the exit come from the rest of the group (a grandchild holding the pipes).
  const groupAlive = (): boolean => alive || cursor < steps.length;

  const run = (): void => {
    while (cursor < steps.length && !blocked && !destroyed) {
      const step = steps[cursor] as FakeStep;
      if (step.frame > elapsed) break;
      if (step.type === 'data' && !reading()) {
        if (heldWrites >= script.pipeCapacity) {
          blocked = true;
          return;
        }
        heldWrites += 1;
      }
      cursor += 1;
      if (step.type === 'exit') exit(step.exitCode, step.signal);
      else write(step);
    }
    arm();
  };
  const arm = (): void => {
    const next = steps[cursor];
    if (next === undefined || blocked || destroyed || timer !== undefined) return;
    timer = scheduler.schedule(() => {
      timer = undefined;
      elapsed = next.frame;
      run();
    }, next.frame - elapsed);
  };

  const flush = (): void => {
    if (flushing) return;
    flushing = true;
    try {
      while (held.length > 0 && !readerPaused && !destroyed) {
        const item = held.shift() as PipeItem;
        if (item.type === 'data') heldWrites -= 1;
        deliver(item);
      }
    } finally {
      flushing = false;
    }
    if (blocked && reading()) {
      blocked = false;
      run();
    }
  };

  // Even what is due at once comes later, on the scheduler, as with a real child.
  if (script.spawnError === undefined) arm();
  return {
    pid,
    pause: () => {
      if (readerPaused) return;
      readerPaused = true;
      note({ type: 'pause' });
    },
    resume: () => {
      if (!readerPaused) return;
      readerPaused = false;
      note({ type: 'resume' });
      flush();
    },
    killGroup: (signal) => {
      note({ type: 'kill', signal });
      if (!groupAlive() || (signal !== 'SIGKILL' && script.ignores.includes(signal))) return;
      timer?.unsubscribe();
      timer = undefined;
      cursor = steps.length;
      blocked = false;
      if (alive) exit(null, signal);
      for (const stream of [...open]) write({ frame: elapsed, type: 'end', stream });
    },
    groupAlive,
    writeInput: (bytes, callback) => {
      note({ type: 'input', bytes });
      callback(alive && !inputEnded ? null : new Error('write EPIPE: the fake process closed its stdin'));
    },
    endInput: () => {
      if (inputEnded) return;
      inputEnded = true;
      note({ type: 'endInput' });
    },
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      timer?.unsubscribe();
      timer = undefined;
      held.length = 0;
      note({ type: 'destroy' });
    },
  };
}
