/**
 * How a fake process ends: an exit code or a death by signal, at virtual time `at` (ms after the
 * spawn; default: when its last pipe closes), or `'hang'` (it never exits by itself: only a kill
 * ends it).
 */
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
  /**
   * How many writes the pipes hold while nobody reads them (default 0): once they are full, the
   * next write blocks the process, and its whole script (later writes, its exit) waits until the
   * reader resumes — a child blocked on a full pipe.
   */
  readonly pipeCapacity?: number;
  /** Fail the spawn with this errno (`'ENOENT'`, `'EACCES'`, …) instead of running. */
  readonly spawnError?: string;
}
