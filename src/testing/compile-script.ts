import { constants } from 'node:os';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import type { OutputStream } from '../sources/exec/process-port.js';
import { parseTimeline } from './parse-timeline.js';

/** How a fake process ends: a code or signal at `at` ms (default: when its last pipe closes), or `'hang'`. */
export type FakeExit =
  | { readonly code: number; readonly at?: number }
  | { readonly signal: NodeJS.Signals; readonly at?: number }
  | 'hang';

/**
 * A scripted run of a fake process (see {@link fakeExec}).
 *
 * `stdout` and `stderr` are marble diagrams of *writes* in virtual time from the spawn (1 frame =
 * 1 ms, `TestScheduler.run` syntax): each letter writes `values[letter]` (default: the letter and a
 * newline), `|` closes the pipe. A pipe without `|` closes when the process exits (or after its
 * last write, if later); with `exit: 'hang'` it stays open.
 */
export interface FakeProcessScript {
  readonly stdout?: string;
  readonly stderr?: string;
  /** What each letter writes (a string is written as UTF-8). */
  readonly values?: Readonly<Record<string, string | Uint8Array>>;
  /** Default `{ code: 0 }`. */
  readonly exit?: FakeExit;
  /** Signals the process survives (as `trap '' TERM` would); `SIGKILL` cannot be ignored. */
  readonly ignores?: readonly NodeJS.Signals[];
  /** Writes the pipes hold unread (default 0); past that the whole script waits for the reader, as a blocked child. */
  readonly pipeCapacity?: number;
  /** Fail the spawn with this errno (`'ENOENT'`, `'EACCES'`, …) instead of running. */
  readonly spawnError?: string;
}

/** One step of a compiled script, at `frame` ms of the process's own time. */
export type FakeStep = { readonly frame: number } & (
  | { readonly type: 'data'; readonly stream: OutputStream; readonly bytes: Uint8Array }
  | { readonly type: 'end'; readonly stream: OutputStream }
  | { readonly type: 'exit'; readonly exitCode: number | null; readonly signal: string | null }
);

/** A validated script: its steps in time order, and the rest of its behaviour. */
export interface CompiledScript {
  readonly steps: readonly FakeStep[];
  readonly ignores: readonly string[];
  readonly pipeCapacity: number;
  readonly spawnError: string | undefined;
}

type Check = (value: unknown) => boolean;
const isSignal: Check = (name) =>
  typeof name === 'string' && Object.hasOwn(constants.signals, name) && name !== 'SIGKILL';
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** `{ code }` or `{ signal }` with an optional `at` (a non-negative integer) and nothing else. */
const isExit: Check = (value) => {
  if (value === 'hang') return true;
  if (!isRecord(value)) return false;
  const { code, signal, at, ...rest } = value;
  const ending =
    (Number.isInteger(code) && (code as number) >= 0 && (code as number) <= 255 && signal === undefined) ||
    (isSignal(signal) && code === undefined);
  return (
    ending &&
    (at === undefined || (Number.isInteger(at) && (at as number) >= 0)) &&
    Object.keys(rest).length === 0
  );
};
const FIELDS: Record<string, readonly [Check, string]> = {
  stdout: [(value) => typeof value === 'string', 'a marble diagram (string)'],
  stderr: [(value) => typeof value === 'string', 'a marble diagram (string)'],
  values: [
    (value) =>
      isRecord(value) &&
      Object.values(value).every((item) => typeof item === 'string' || item instanceof Uint8Array),
    'an object of strings or Uint8Arrays',
  ],
  exit: [isExit, "`{ code }`, `{ signal }` (with an optional `at`) or 'hang'"],
  ignores: [
    (value) => Array.isArray(value) && value.every(isSignal),
    'an array of signal names other than SIGKILL',
  ],
  pipeCapacity: [(value) => Number.isSafeInteger(value) && (value as number) >= 0, 'a non-negative integer'],
  spawnError: [(value) => typeof value === 'string' && value !== '', 'an errno string such as `ENOENT`'],
};
const encoder = new TextEncoder();

/** Validates a {@link FakeProcessScript} (a `TypeError` naming the field) into time-ordered steps. */
export function compileScript(script: FakeProcessScript): CompiledScript {
  if (typeof script !== 'object' || script === null)
    throw optionError('script', 'an object', script, 'argument');
  rejectUnknownOptions(script, Object.keys(FIELDS));
  for (const [name, [accepts, expected]] of Object.entries(FIELDS)) {
    const value = (script as unknown as Record<string, unknown>)[name];
    if (value !== undefined && !accepts(value)) throw optionError(name, expected, value);
  }
  const exit = script.exit ?? { code: 0 };
  const pipes = (['stdout', 'stderr'] as const).map((stream) => {
    const timeline = parseTimeline<string>(script[stream] ?? '|', undefined, stream);
    const steps: FakeStep[] = [];
    let closedAt: number | undefined;
    for (const entry of timeline) {
      if (entry.kind === 'E')
        throw optionError(stream, 'a diagram without `#` (end the process with `exit`)', script[stream]);
      if (entry.kind === 'C') closedAt = entry.frame;
      else
        steps.push({ frame: entry.frame, type: 'data', stream, bytes: toBytes(script.values, entry.value) });
    }
    return { stream, steps, closedAt, last: steps.at(-1)?.frame ?? 0 };
  });
  const lastClose = Math.max(...pipes.map((pipe) => pipe.closedAt ?? pipe.last));
  const exitAt = exit === 'hang' ? undefined : (exit.at ?? lastClose);
  const steps: FakeStep[] = pipes.flatMap((pipe) => {
    const closeAt = pipe.closedAt ?? (exitAt === undefined ? undefined : Math.max(exitAt, pipe.last));
    return closeAt === undefined
      ? pipe.steps
      : [...pipe.steps, { frame: closeAt, type: 'end', stream: pipe.stream } as const];
  });
  if (exit !== 'hang') {
    const info =
      'code' in exit ? { exitCode: exit.code, signal: null } : { exitCode: null, signal: exit.signal };
    steps.push({ frame: exitAt as number, type: 'exit', ...info });
  }
  const rank = (step: FakeStep) => (step.type === 'exit' ? 1 : 0);
  steps.sort((a, b) => a.frame - b.frame || rank(a) - rank(b));
  const { ignores = [], pipeCapacity = 0, spawnError } = script;
  return { steps, ignores, pipeCapacity, spawnError };
}

function toBytes(values: FakeProcessScript['values'], letter: string): Uint8Array {
  const value = values !== undefined && Object.hasOwn(values, letter) ? values[letter] : `${letter}\n`;
  return typeof value === 'string' ? encoder.encode(value) : (value as Uint8Array);
}
