import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import type { ProcessHandle, ProcessPort, SpawnRequest } from '../sources/exec/process-port.js';
import type { FakeProcessScript } from './compile-script.js';
import { compileScript } from './compile-script.js';
import { startFakeProcess } from './fake-process.js';

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
 * A fake process for `exec`: plug it in as the `port` (`exec(file, args, { port: fake, scheduler })`)
 * and the very same `exec` code path runs a scripted process in virtual time, so operators,
 * adapters, the CLI rendering and the kernel host behave as with a real child. Each spawn plays
 * `script` from its start (see {@link FakeProcessScript}): writes on stdout/stderr, then an exit
 * code, a signal or a hang. It honours backpressure (a paused reader holds its output; the process
 * blocks on full pipes) and records what the code under test did to it, with virtual times.
 *
 * The script is validated now (a `TypeError` naming the field). No promises, no real timers: use
 * it inside `TestScheduler.run` or give a virtual `scheduler`.
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
  const scheduler = options.scheduler ?? asyncScheduler;
  if (typeof scheduler.now !== 'function' || typeof scheduler.schedule !== 'function') {
    throw optionError('scheduler', 'a SchedulerLike', scheduler);
  }
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
      const handle = startFakeProcess(compiled, events, scheduler, pid, (note) =>
        record(note.type === 'input' ? { ...note, text: decoder.decode(note.bytes) } : note),
      );
      handles.push(handle);
      if (compiled.spawnError !== undefined) {
        const error = new Error(`spawn ${request.file} ${compiled.spawnError}`);
        events.spawnError(Object.assign(error, { code: compiled.spawnError, path: request.file }));
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
      return of('input')
        .map((entry) => entry.text)
        .join('');
    },
    get inputEnded() {
      const last = of('spawn').at(-1);
      return (
        last !== undefined && records.some((entry) => entry.type === 'endInput' && entry.pid === last.pid)
      );
    },
    get running() {
      return handles.filter((handle) => handle.groupAlive()).length;
    },
  };
}
