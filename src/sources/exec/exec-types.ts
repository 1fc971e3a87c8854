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
   * `'utf8'` (default): line events carry decoded text (invalid bytes become U+FFFD). `'buffer'`:
   * the bytes as the child wrote them, as `Uint8Array`s. The result's `stdout` and `stderr` stay text.
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
   * `'auto'` (default): the run's own cgroup v2 where this process may make one (then every way a
   * run ends reaches daemons that left the group), else its own process group; `'cgroup'` fails
   * with `CGROUP_UNAVAILABLE` where it cannot; `'group'` never makes one (docs/containment.md).
   */
  containment?: ContainmentOption;
  /**
   * Limits of the whole run, enforced by its cgroup ({@link ExecLimits}): they need a cgroup and
   * the controller of each limit, and fail with `LIMIT_UNAVAILABLE` where those are missing.
   */
  limits?: ExecLimits;
  /**
   * Aborting it cancels the run (execa's name): the group is killed as on unsubscribe, then the
   * stream errors with a `CancelledError` carrying the partial result, whatever `reject` says.
   */
  cancelSignal?: AbortSignal;
  /** `SIGKILL` the run if this Node process ends while it runs (default `true`; `false`: a daemon may outlive it). */
  cleanup?: boolean;
  /**
   * Put a traced run's context in the child's environment as `TRACEPARENT` (and `TRACESTATE`),
   * default `true`; an `env` entry of the same name wins (docs/tracing.md).
   */
  propagateTrace?: boolean;
  /** Record the command line as the span's `process.command_args` (default `false`: arguments may hold secrets). */
  traceCommandArgs?: boolean;
  /** Clock of `timeoutMs`, `forceKillAfterMs` and `durationMs` (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** How processes are started (default: the real one, {@link childProcessPort}, on Node's `child_process`). */
  port?: ProcessPort;
  /** Who may pause the reading of the pipes. Default: the consumer's demand ({@link demandOf}). */
  demand?: Demand;
  /**
   * Run the command on a pseudo-terminal (default `false`: pipes): `true` is 80 × 24, `{ columns,
   * rows }` another size and each value of `resize` a new one. Output then comes as `'stdout'`
   * lines ending in `\r\n`, `input` is typed (and echoed), and a death by signal n is exit code
   * 128 + n (docs/terminal.md, "What changes on a terminal"). Needs util-linux's `script`.
   */
  tty?: boolean | { columns?: number; rows?: number; resize?: Observable<TtySize> };
}
