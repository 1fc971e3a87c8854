import type { Observable, SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import type { Demand } from '../../core/demand.js';
import type { ExecResult } from './exec-result.js';
import type { ContainmentOption, ExecLimits, ExecRlimits, ProcessPort, TtySize } from './process-port.js';

/**
 * One line (or, with `lines: false`, one read) of the child's stdout or stderr: decoded text, or
 * with `encoding: 'buffer'` the bytes as the child wrote them (`C` is then `Uint8Array`).
 */
export interface ExecLineEvent<C extends string | Uint8Array = string> extends ChunkEvent<C> {
  readonly kind: 'stdout' | 'stderr';
  readonly content: C;
  readonly isFinal: false;
}

/** The final event of a run: the child exited and both pipes were read to the end. */
export interface ExecExitEvent extends ChunkEvent<ExecResult> {
  readonly kind: 'exit';
  readonly content: ExecResult;
  readonly isFinal: true;
}

/**
 * An event of {@link exec}: line events, then exactly one `exit` event. `C` is the line content:
 * `string`, or `Uint8Array` with `encoding: 'buffer'`.
 */
export type ExecEvent<C extends string | Uint8Array = string> = ExecLineEvent<C> | ExecExitEvent;

/**
 * Options of {@link exec}. Checked when `exec` is called: a bad one throws a `TypeError`
 * naming it.
 */
export interface ExecOptions {
  /** Working directory of the child. */
  cwd?: string;
  /** Environment variables; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** Whether `env` extends `process.env` (default `true`) or replaces it. */
  extendEnv?: boolean;
  /** Written to the child's stdin, which is then closed; an Observable is written with backpressure. */
  input?: string | Uint8Array | Observable<string | Uint8Array>;
  /** One event per line (default `true`), or one per read (`false`). */
  lines?: boolean;
  /**
   * `'utf8'` (default): line events carry decoded text (invalid bytes become U+FFFD).
   * `'buffer'`: they carry the bytes exactly as the child wrote them, as `Uint8Array`s (lines are
   * still split on `\n`; a long one is cut at exactly `maxLineBytes`). The result's `stdout` and
   * `stderr` stay text.
   */
  encoding?: 'utf8' | 'buffer';
  /** A longer line is split into pieces of at most this many bytes, marked `partial` (default 65536). */
  maxLineBytes?: number;
  /** How many bytes of each of stdout and stderr the result keeps (default 262144). */
  maxOutputBytes?: number;
  /** Kill the child after this many milliseconds (at most 2147483647, the longest timer); `0` (default) means never. */
  timeoutMs?: number;
  /** Error on a non-zero exit, a death by signal or a timeout (default `true`). */
  reject?: boolean;
  /** The signal sent to the process group on cancel and timeout (default `'SIGTERM'`). */
  killSignal?: NodeJS.Signals;
  /** `SIGKILL` the group if any member is still alive this long after `killSignal` (default 2000; at most 2147483647). */
  forceKillAfterMs?: number;
  /** Resource limits of the child (needs `prlimit`; fails with `RLIMIT_UNAVAILABLE` without it, or when a limit cannot be set). */
  rlimits?: ExecRlimits;
  /**
   * How the run is contained (default `'auto'`): in its own cgroup v2 where this process may make
   * one — then cancel, timeout and parent exit reach daemons that left the process group
   * (`cgroup.kill`), and the result's `usage` tells the whole run's CPU time — else in its own
   * process group. `'cgroup'` fails with `CGROUP_UNAVAILABLE` where it cannot; `'group'` never
   * makes a cgroup. The result's `containment` says which one the run had.
   */
  containment?: ContainmentOption;
  /**
   * Limits of the whole run, enforced by its cgroup ({@link ExecLimits}): they need a cgroup and
   * the controller of each limit, and fail with `LIMIT_UNAVAILABLE` where those are missing.
   */
  limits?: ExecLimits;
  /**
   * Aborting it cancels the run (execa's name): the group gets `killSignal` (then `SIGKILL` after
   * `forceKillAfterMs`), and once it is gone the stream errors with a `CancelledError` (code
   * `CANCELLED`) carrying the partial result, whatever `reject` says. Already aborted: nothing
   * spawns.
   */
  cancelSignal?: AbortSignal;
  /**
   * `SIGKILL` the child's group if this Node process ends while it runs (`exit`, `process.exit()`,
   * or a fatal signal such as Ctrl-C) — default `true`. `false` lets a child outlive its parent (a
   * daemon).
   */
  cleanup?: boolean;
  /**
   * Put the run's trace context in the child's environment as `TRACEPARENT` (and `TRACESTATE`)
   * when the run is traced, so that a child using OpenTelemetry joins the trace (default `true`;
   * an `env` entry of the same name wins). See docs/tracing.md.
   */
  propagateTrace?: boolean;
  /**
   * Record the command line as the span's `process.command_args` (default `false`: arguments may
   * hold secrets). See docs/tracing.md.
   */
  traceCommandArgs?: boolean;
  /** Clock of `timeoutMs`, `forceKillAfterMs` and `durationMs` (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** How processes are started (default: the real one, {@link childProcessPort}, on Node's `child_process`). */
  port?: ProcessPort;
  /** Who may pause the reading of the pipes. Default: the consumer's demand ({@link demandOf}). */
  demand?: Demand;
  /**
   * Run the command on a pseudo-terminal (default `false`: pipes), so that it behaves as it does
   * in a terminal: line-buffered output, colours, progress bars (docs/terminal.md). `true` is an
   * 80 × 24 terminal; `{ columns, rows }` another size (1 to 65535 each), and each value of
   * `resize` a new one (the child gets `SIGWINCH`). On a terminal stdout and stderr are one
   * stream: every line event has `kind` `'stdout'` and ends with `\r\n` as the terminal sends it
   * (`'stderr'` carries only the messages of `script` itself); `input` is typed into the terminal
   * (and echoed, as a terminal does), and its end is an end-of-file (Ctrl-D). A death by signal n is
   * reported as exit code 128 + n. Needs util-linux's `script`: fails with `TTY_UNAVAILABLE`
   * without it.
   */
  tty?: boolean | { columns?: number; rows?: number; resize?: Observable<TtySize> };
}
