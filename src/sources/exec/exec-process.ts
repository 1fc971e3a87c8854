import { basename } from 'node:path';
import { type Subscriber, Subscription, type TeardownLogic } from 'rxjs';
import type { Demand } from '../../core/demand.js';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import { isSpawnError, SpawnError } from '../../core/errors/spawn-error.js';
import { optionError } from '../../core/option-error.js';
import { stalledBelow } from '../../core/subscriber-chain.js';
import { isTerminalSize } from '../../core/terminal-size.js';
import {
  errorTypeOf,
  NOOP_RUN_SPAN,
  type RunSpan,
  type SpanEndDetails,
  type SpanEndReason,
  startRunSpan,
} from '../../trace/run-span.js';
import type { TraceCarrier } from '../../trace/trace-context.js';
import { cancelledError, execFailure } from './exec-failure.js';
import { type ExecLines, execLineQueue } from './exec-line-queue.js';
import type { ResolvedExecOptions } from './exec-options.js';
import { ExecOutput } from './exec-output.js';
import type { ExecResult } from './exec-result.js';
import type { ExecEvent } from './exec-types.js';
import { GroupKiller } from './group-killer.js';
import { writeInput } from './input-writer.js';
import type {
  ExitInfo,
  OutputStream,
  ProcessEvents,
  ProcessHandle,
  ProcessPort,
  SpawnRequest,
  TtySize,
} from './process-port.js';
import { quoteCommand } from './quote-command.js';
import { rlimitHit } from './rlimits.js';

/**
 * One subscription of `exec`: spawns through `port`, turns reads into sequenced line events,
 * honours `demand`, and ends with the `exit` event (or an error). The rules:
 *
 * - **No loss**: the final event comes only after the child exited AND both pipes ended AND
 *   every line was delivered.
 * - **Demand**: the lines wait in a {@link DemandQueue} gated by `demand`. While it is paused the
 *   pipes are not read (the child blocks on its full pipe) and the lines already split from the
 *   last read wait in the queue; reading resumes only once that queue is empty and demand flows. Lines
 *   of both pipes keep their arrival order. The final `exit` event waits for demand like a line;
 *   an error comes once every line before it was delivered.
 * - **Pipes held open after the leader exited** (a background grandchild inherited them): reading
 *   goes on for `forceKillAfterMs`, then the rest of the group gets `killSignal` (then `SIGKILL`),
 *   which closes the pipes and ends the run; the result is the leader's. A holder outside the group
 *   (it called `setsid`) keeps the stream open until `timeoutMs` or unsubscribe.
 * - **A run ends with its group**: members still alive when the run finishes are killed too.
 * - **Cancel means gone**: unsubscribing sends `killSignal` to the group, releases the pipes, and
 *   `SIGKILL`s the group `forceKillAfterMs` later if any member is still alive — that watch
 *   outlives the subscription on purpose, and ends as soon as the group is gone
 *   ({@link GroupKiller}), so it keeps the event loop alive only while a member is.
 *
 * The run's life is the steps of {@link ExecProcess} below.
 */
export function subscribeExec(
  options: ResolvedExecOptions,
  port: ProcessPort,
  subscriber: Subscriber<ExecEvent>,
  demand: Demand | undefined,
): TeardownLogic {
  const { cancelSignal } = options;
  if (cancelSignal?.aborted) {
    subscriber.error(cancelledError(cancelSignal.reason, undefined, options.file));
    return undefined;
  }
  const child = new ExecProcess(options, subscriber, demand);
  child.start(port);
  return () => child.unsubscribe();
}

/**
 * The process of one exec subscription and its steps: {@link ExecProcess.start} (watch the cancel
 * signal, spawn, follow demand, arm the timeout, write the input), the process's events (a read, a
 * pipe's end, the exit, a spawn failure), and the ways it ends ({@link ExecProcess.finishIfDone},
 * {@link ExecProcess.fail}, {@link ExecProcess.unsubscribe}). Internal to `src/sources/exec`.
 */
export class ExecProcess implements ProcessEvents {
  readonly #options: ResolvedExecOptions;
  readonly #subscriber: Subscriber<ExecEvent>;
  readonly #lines: ExecLines;
  readonly #output: ExecOutput;
  readonly #ends = new ProcessEnds();
  /** The timeout, the grace period of pipes held open, the cancel signal's listener. */
  readonly #timers = new Subscription();
  readonly #startedAt: number;
  #handle: ProcessHandle | undefined;
  #killer: GroupKiller | undefined;
  #done = false;
  #timedOut = false;
  #cancelled: { readonly reason: unknown } | undefined;
  #stopInput = (): void => {};
  #stopReading = (): void => {};
  /** The run's span (docs/tracing.md); the no-op one without `@opentelemetry/api`. */
  #span: RunSpan = NOOP_RUN_SPAN;
  #sawOutput = false;
  /** Demand's pauses, timed only while traced: when the current one began, and the total of those over. */
  #pausedAt: number | undefined;
  #pausedMs = 0;

  constructor(options: ResolvedExecOptions, subscriber: Subscriber<ExecEvent>, demand: Demand | undefined) {
    this.#options = options;
    this.#subscriber = subscriber;
    this.#startedAt = options.scheduler.now();
    const lines = execLineQueue(subscriber, demand, options.demand !== undefined);
    this.#lines = lines;
    this.#output = new ExecOutput(options, lines);
  }

  /** Spawns the child and starts everything that watches it. */
  start(port: ProcessPort): void {
    this.#watchCancelSignal();
    const span = startExecSpan(this.#options);
    this.#span = span;
    const handle = port.spawn(spawnRequest(this.#options, span.carrier), this);
    this.#handle = handle;
    if (span.recording && handle.pid !== undefined && !this.#done) {
      span.add({ 'process.pid': handle.pid });
      span.event('sluice.spawn', { 'process.pid': handle.pid });
    }
    this.#killer = new GroupKiller(
      handle,
      this.#options.killSignal,
      this.#options.forceKillAfterMs,
      this.#options.scheduler,
      span.observed ? (killMs) => span.groupGone(killMs) : undefined,
    );
    this.#followDemand(handle);
    this.#armTimeout();
    this.#followResize(handle);
    if (!this.#done && this.#options.input !== undefined) {
      this.#stopInput = writeInput(this.#options.input, handle, (error) => this.fail(error));
    }
  }

  data(stream: OutputStream, bytes: Uint8Array): void {
    if (this.#done || this.#subscriber.closed) return;
    if (!this.#sawOutput) {
      this.#sawOutput = true;
      this.#span.event('sluice.first_output', { 'sluice.stream': stream });
    }
    this.#output.read(stream, bytes);
  }

  end(stream: OutputStream): void {
    if (this.#done || !this.#ends.pipeEnded(stream)) return;
    this.#output.end(stream);
    this.finishIfDone();
  }

  exit(info: ExitInfo): void {
    const { scheduler, forceKillAfterMs } = this.#options;
    if (this.#done || !this.#ends.exited(info, scheduler.now())) return;
    // Pipes held open by a grandchild: read on for a grace period, then kill the rest of the group.
    if (!this.#ends.pipesEnded) {
      this.#timers.add(
        scheduler.schedule(() => (this.#done ? undefined : this.#terminate()), forceKillAfterMs),
      );
    }
    this.finishIfDone();
  }

  spawnError(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#timers.unsubscribe();
    const { file, cwd } = this.#options;
    const errno = (error as { code?: string })?.code ?? 'UNKNOWN';
    const reason = isSluiceError(error) ? error : new SpawnError({ errno, file, cwd }, { cause: error });
    // `error.type`: the OS's code (`ENOENT`), else the error's own (`RLIMIT_UNAVAILABLE`, …).
    const errorType = isSpawnError(reason) ? (reason.info?.errno ?? errno) : reason.code;
    this.#span.end('spawn_failure', { errorType, message: reason.message });
    this.#lines.end({ error: true, reason });
  }

  /** The child exited and both pipes ended: the result, then the final event or the error, behind the lines. */
  finishIfDone(): void {
    const exit = this.#ends.exit;
    if (this.#done || exit === undefined || !this.#ends.complete) return;
    this.#done = true;
    this.#timers.unsubscribe();
    const handle = this.#handle as ProcessHandle;
    const killer = this.#killer as GroupKiller;
    const options = this.#options;
    const result = this.#result(exit, handle, killer);
    killer.settle(); // reports the group gone to the span, if it was killed and is gone
    this.#span.end(...execSpanEnd(result, this.#cancelled !== undefined, this.#counts()));
    this.#stopInput();
    handle.destroy();
    const error = execFailure(options, exit, result, this.#cancelled);
    // The ending goes into the queue: it never overtakes a line still waiting for demand.
    if (error !== undefined) this.#lines.end({ error: true, reason: error });
    else {
      this.#lines.push({ sequence: this.#output.next(), kind: 'exit', content: result, isFinal: true });
      this.#lines.end({ error: false });
    }
  }

  /** Ends the run with `error` (the input failed): the group is killed, the lines before it still go out. */
  fail(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#timers.unsubscribe();
    this.#stopInput();
    this.#terminate();
    this.#handle?.destroy();
    this.#span.end('error', {
      ...this.#counts(),
      errorType: errorTypeOf(error),
      message: (error as Error)?.message,
    });
    this.#lines.end({ error: true, reason: error });
  }

  /** The consumer left: what waits is dropped, the group is killed, the pipes released. */
  unsubscribe(): void {
    this.#stopReading();
    this.#lines.close();
    this.#timers.unsubscribe();
    if (!this.#done) {
      this.#done = true;
      this.#stopInput();
      const stalled = this.#span.observed ? stalledBelow(this.#subscriber) : undefined;
      if (stalled === undefined) this.#span.event('sluice.cancel');
      else this.#span.event('sluice.stall', { 'sluice.stall_ms': stalled });
      this.#terminate();
      this.#endSpanOnceGone(stalled === undefined ? 'cancel' : 'stall');
    }
    this.#handle?.destroy();
  }

  /** The result of the finished run: its output decoded, the command quoted for display. */
  #result(exit: ExitInfo, handle: ProcessHandle, killer: GroupKiller): ExecResult {
    const { stdout, stderr } = this.#output;
    const { file, args, rlimits } = this.#options;
    const report = handle.containment?.(); // absent: a port without cgroups
    const stderrText = stderr.text();
    return {
      command: quoteCommand(file, args),
      pid: handle.pid,
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut: this.#timedOut,
      truncated: stdout.truncated || stderr.truncated,
      durationMs: this.#ends.exitedAt - this.#startedAt,
      stdout: stdout.text(),
      stderr: stderrText,
      // Whether sluice signalled the group before the leader exited tells its kill from a limit's.
      rlimitHit: rlimitHit(rlimits, exit, stderrText, killer.killedBeforeExit),
      containment: report?.containment ?? 'group',
      usage: report?.usage ?? null,
      limitHit: report?.limitHit ?? null,
    };
  }

  /** The counts of the run so far, for its span's end. */
  #counts(): Pick<SpanEndDetails, 'lines' | 'bytes' | 'pausedMs'> {
    const { stdout, stderr } = this.#output;
    const pausedMs =
      this.#pausedMs + (this.#pausedAt === undefined ? 0 : this.#options.scheduler.now() - this.#pausedAt);
    return { lines: this.#output.lines, bytes: { stdout: stdout.total, stderr: stderr.total }, pausedMs };
  }

  /** A cancelled or stalled run's span ends once its group is gone (or the kill's watch gave up). */
  #endSpanOnceGone(reason: 'cancel' | 'stall'): void {
    const span = this.#span;
    const details: SpanEndDetails = reason === 'stall' ? { errorType: 'stall', message: 'stalled' } : {};
    const counts = this.#counts();
    const end = () => span.end(reason, { ...counts, ...details });
    if (this.#killer === undefined) end();
    else this.#killer.afterWatch(end);
  }

  #watchCancelSignal(): void {
    const { cancelSignal } = this.#options;
    if (cancelSignal === undefined) return;
    const onCancel = (): void => {
      if (this.#done || this.#timedOut || this.#cancelled !== undefined) return;
      this.#cancelled = { reason: cancelSignal.reason };
      this.#span.event('sluice.cancel');
      this.#terminate();
    };
    cancelSignal.addEventListener('abort', onCancel, { once: true });
    this.#timers.add(() => cancelSignal.removeEventListener('abort', onCancel));
  }

  /** The pipes are read while the line queue's valve flows. */
  #followDemand(handle: ProcessHandle): void {
    const valve = this.#lines.producerValve;
    const timed = this.#span.observed;
    this.#stopReading = valve.onChange((paused) => {
      if (paused) handle.pause();
      else handle.resume();
      if (timed) this.#timePause(paused);
    });
    if (valve.paused) {
      handle.pause();
      if (timed) this.#timePause(true);
    }
  }

  /** Adds up how long demand held the pipes (`sluice.paused_ms`). */
  #timePause(paused: boolean): void {
    const now = this.#options.scheduler.now();
    if (paused) this.#pausedAt ??= now;
    else if (this.#pausedAt !== undefined) {
      this.#pausedMs += now - this.#pausedAt;
      this.#pausedAt = undefined;
    }
  }

  /** Each size of `tty.resize` goes to the terminal; a malformed one fails the run. */
  #followResize(handle: ProcessHandle): void {
    const resize = this.#options.tty?.resize;
    if (this.#done || resize === undefined || handle.resize === undefined) return;
    const apply = (size: TtySize): void => {
      if (isTerminalSize(size)) handle.resize?.(size);
      else
        this.fail(optionError('tty.resize', 'to emit `{ columns, rows }` of integers from 1 to 65535', size));
    };
    this.#timers.add(resize.subscribe({ next: apply, error: (error: unknown) => this.fail(error) }));
  }

  #armTimeout(): void {
    const { timeoutMs, scheduler } = this.#options;
    if (this.#done || timeoutMs <= 0) return;
    const fire = (): void => {
      if (this.#done || this.#cancelled !== undefined) return;
      this.#timedOut = true;
      this.#span.event('sluice.timeout', { 'sluice.timeout_ms': timeoutMs });
      this.#terminate();
    };
    this.#timers.add(scheduler.schedule(fire, timeoutMs));
  }

  #terminate(): void {
    this.#killer?.kill(this.#ends.exit !== undefined);
  }
}

/**
 * What an exec process waits for before its run's final event: the leader's exit AND the end of both pipes
 * (a pipe held open by a grandchild ends later than the exit). Each is counted once: `exited` and
 * `pipeEnded` return `false` for a repeat.
 */
export class ProcessEnds {
  #exit: ExitInfo | undefined;
  /** When the leader exited, on the scheduler's clock. */
  #exitedAt = 0;
  readonly #pipes = new Set<OutputStream>();

  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  get exitedAt(): number {
    return this.#exitedAt;
  }

  get pipesEnded(): boolean {
    return this.#pipes.size === 2;
  }

  get complete(): boolean {
    return this.#exit !== undefined && this.pipesEnded;
  }

  exited(info: ExitInfo, at: number): boolean {
    if (this.#exit !== undefined) return false;
    this.#exit = info;
    this.#exitedAt = at;
    return true;
  }

  pipeEnded(stream: OutputStream): boolean {
    if (this.#pipes.has(stream)) return false;
    this.#pipes.add(stream);
    return true;
  }
}

/**
 * What `exec` asks of its {@link ProcessPort}, from the resolved options. With a `carrier` (the
 * run's span) and `propagateTrace`, the child's environment gets `TRACEPARENT` and `TRACESTATE`
 * (an inherited `TRACESTATE` is removed when the span has none) — unless `env` names either
 * itself (docs/tracing.md).
 */
function spawnRequest(options: ResolvedExecOptions, carrier?: TraceCarrier): SpawnRequest {
  return {
    file: options.file,
    args: options.args,
    cwd: options.cwd,
    env: carrier === undefined || !options.propagateTrace ? options.env : traceEnv(options.env, carrier),
    extendEnv: options.extendEnv,
    rlimits: options.rlimits,
    hasInput: options.input !== undefined,
    cleanup: options.cleanup,
    containment: options.containment,
    limits: options.limits,
    tty: options.tty === undefined ? undefined : { columns: options.tty.columns, rows: options.tty.rows },
  };
}

function traceEnv(
  env: Readonly<Record<string, string | undefined>> | undefined,
  carrier: TraceCarrier,
): Readonly<Record<string, string | undefined>> | undefined {
  if (env !== undefined && ('TRACEPARENT' in env || 'TRACESTATE' in env)) return env;
  return { ...env, TRACEPARENT: carrier.traceparent, TRACESTATE: carrier.tracestate };
}

/**
 * Starts the span of one exec run, `exec <executable>`, as a child of the active context: the
 * process semantic conventions' `process.executable.name`, and `process.command_args` only with
 * `traceCommandArgs` (arguments may hold secrets). docs/tracing.md lists the rest.
 */
function startExecSpan(options: ResolvedExecOptions): RunSpan {
  const name = basename(options.file);
  return startRunSpan('exec', `exec ${name}`, {
    'process.executable.name': name,
    'process.command_args': options.traceCommandArgs ? [options.file, ...options.args] : undefined,
  });
}

/**
 * How a finished exec run ends its span: the reason, `error.type` for a failure (the signal's
 * name, the non-zero exit code, `timeout`) — a cancelled run is no failure of the command, so its
 * status stays unset — and the result's attributes.
 */
function execSpanEnd(
  result: ExecResult,
  cancelled: boolean,
  counts: Pick<SpanEndDetails, 'lines' | 'bytes' | 'pausedMs'>,
): [SpanEndReason, SpanEndDetails] {
  const attributes = {
    'process.exit.code': result.exitCode ?? undefined,
    'sluice.signal': result.signal ?? undefined,
    'sluice.truncated': result.truncated,
    'sluice.containment': result.containment,
    'sluice.rlimit_hit': result.rlimitHit ?? undefined,
    'sluice.limit_hit': result.limitHit ?? undefined,
  };
  const failure = (errorType: string, message: string): SpanEndDetails => ({
    ...counts,
    attributes,
    errorType,
    message,
  });
  if (cancelled) return ['cancel', { ...counts, attributes }];
  if (result.timedOut) return ['timeout', failure('timeout', 'timed out')];
  if (result.signal !== null) return ['signal', failure(result.signal, `killed by ${result.signal}`)];
  if (result.exitCode !== 0)
    return ['exit', failure(String(result.exitCode), `exit code ${result.exitCode}`)];
  return ['exit', { ...counts, attributes }];
}
