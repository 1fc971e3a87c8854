import type { Subscriber, TeardownLogic } from 'rxjs';
import { Subscription } from 'rxjs';
import type { ChunkMetadata } from '../../core/chunk.js';
import type { Demand } from '../../core/demand.js';
import { CancelledError } from '../../core/errors/cancelled-error.js';
import { ExecError } from '../../core/errors/exec-error.js';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import { SpawnError } from '../../core/errors/spawn-error.js';
import type { ExecResult } from '../../core/exec-result.js';
import { DemandQueue } from '../../core/queue/demand-queue.js';
import { ByteLineSplitter } from './byte-line-splitter.js';
import { ByteReader } from './byte-reader.js';
import { cgroupJoinFailure } from './cgroup-join-failure.js';
import { escalateKill } from './escalate-kill.js';
import type { ResolvedExecOptions } from './exec-options.js';
import { buildExecResult } from './exec-result.js';
import type { ExecEvent, ExecLineEvent } from './exec-types.js';
import { writeInput } from './input-writer.js';
import { OutputAccumulator } from './output-accumulator.js';
import { prlimitFailure } from './prlimit-failure.js';
import type { ExitInfo, OutputStream, ProcessEvents, ProcessHandle, ProcessPort } from './process-port.js';
import { ReadDecoder } from './read-decoder.js';
import { Utf8LineSplitter } from './utf8-line-splitter.js';

const PARTIAL: ChunkMetadata = Object.freeze({ partial: true });

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
 *   ({@link escalateKill}), so it keeps the event loop alive only while a member is.
 *
 * @example
 * ```ts
 * new Observable<ExecEvent>((subscriber) => runExec(resolved, childProcessPort, subscriber, demandOf(subscriber)));
 * ```
 */
export function runExec(
  options: ResolvedExecOptions,
  port: ProcessPort,
  subscriber: Subscriber<ExecEvent>,
  demand: Demand | undefined,
): TeardownLogic {
  const { scheduler, forceKillAfterMs } = options;
  const startedAt = scheduler.now();
  const accumulators = {
    stdout: new OutputAccumulator(options.maxOutputBytes),
    stderr: new OutputAccumulator(options.maxOutputBytes),
  };
  let sequence = 0;
  let done = false;
  let exit: ExitInfo | undefined;
  let exitedAt = 0;
  let stdoutEnded = false;
  let stderrEnded = false;
  let timedOut = false;
  let cancelled: { reason: unknown } | undefined;
  let killedBySluice = false;
  let handle: ProcessHandle | undefined;
  let escalation: Subscription | undefined;
  let stopInput = () => {};
  const timers = new Subscription();

  // The lines on their way out, gated by the consumer's demand. The pipes are read only while
  // nothing waits in it and the demand flows (followGate): the child blocks on its full pipe, and
  // at most the lines of the read in hand wait here.
  const lines = new DemandQueue<ExecEvent>({
    highWater: 1,
    lowWater: 0,
    gate: demand,
    followGate: true,
    deliver: (event) => subscriber.next(event),
    finish: (ending) => (ending.error ? subscriber.error(ending.reason) : subscriber.complete()),
  });
  const stopReading = lines.upstream.onChange((paused) => (paused ? handle?.pause() : handle?.resume()));
  const sink = (kind: OutputStream) => (content: string | Uint8Array, partial: boolean) => {
    lines.push(
      (partial
        ? { sequence: sequence++, kind, content, metadata: PARTIAL, isFinal: false }
        : { sequence: sequence++, kind, content, isFinal: false }) as ExecLineEvent,
    );
  };
  const reader = (kind: OutputStream) => {
    if (options.encoding === 'buffer') {
      return options.lines
        ? new ByteLineSplitter(options.maxLineBytes, sink(kind))
        : new ByteReader(sink(kind));
    }
    return options.lines
      ? new Utf8LineSplitter(options.maxLineBytes, sink(kind))
      : new ReadDecoder(sink(kind));
  };
  const readers = { stdout: reader('stdout'), stderr: reader('stderr') };

  const terminate = (): void => {
    if (handle === undefined) return;
    if (exit === undefined) killedBySluice = true;
    handle.killGroup(options.killSignal);
    if (escalation === undefined || escalation.closed) {
      escalation = escalateKill(handle, forceKillAfterMs, scheduler);
    }
  };

  const finishIfDone = (): void => {
    if (done || exit === undefined || !stdoutEnded || !stderrEnded) return;
    done = true;
    timers.unsubscribe();
    const target = handle as ProcessHandle;
    const result = buildExecResult({
      file: options.file,
      args: options.args,
      pid: target.pid,
      exit,
      timedOut,
      killedBySluice,
      durationMs: exitedAt - startedAt,
      stdout: accumulators.stdout,
      stderr: accumulators.stderr,
      rlimits: options.rlimits,
      containment: target.containment?.(),
    });
    if (target.groupAlive()) terminate();
    else escalation?.unsubscribe();
    stopInput();
    target.destroy();
    const refused =
      prlimitFailure(options.rlimits, exit, result.stdout, result.stderr) ?? cgroupJoinFailure(result);
    // The ending goes into the queue: it never overtakes a line still waiting for demand.
    if (cancelled !== undefined) {
      lines.end({ error: true, reason: cancelledError(cancelled.reason, result, result.command) });
    } else if (refused !== undefined) {
      lines.end({ error: true, reason: refused });
    } else if (options.reject && (result.timedOut || result.exitCode !== 0 || result.limitHit !== null)) {
      lines.end({ error: true, reason: new ExecError(result, { timeoutMs: options.timeoutMs }) });
    } else {
      lines.push({ sequence: sequence++, kind: 'exit', content: result, isFinal: true });
      lines.end({ error: false });
    }
  };

  const fail = (error: unknown): void => {
    if (done) return;
    done = true;
    timers.unsubscribe();
    stopInput();
    terminate();
    handle?.destroy();
    lines.end({ error: true, reason: error });
  };

  const events: ProcessEvents = {
    data: (stream, bytes) => {
      if (done || subscriber.closed) return;
      const buffer = Buffer.isBuffer(bytes)
        ? bytes
        : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      accumulators[stream].add(buffer);
      readers[stream].push(buffer);
    },
    end: (stream) => {
      if (done) return;
      if (stream === 'stdout') {
        if (stdoutEnded) return;
        stdoutEnded = true;
      } else {
        if (stderrEnded) return;
        stderrEnded = true;
      }
      readers[stream].end();
      finishIfDone();
    },
    exit: (info) => {
      if (done || exit !== undefined) return;
      exit = info;
      exitedAt = scheduler.now();
      if (!stdoutEnded || !stderrEnded) {
        timers.add(scheduler.schedule(() => (done ? undefined : terminate()), forceKillAfterMs));
      }
      finishIfDone();
    },
    spawnError: (error) => {
      if (done) return;
      done = true;
      timers.unsubscribe();
      const reason = isSluiceError(error)
        ? error
        : new SpawnError(
            { errno: (error as { code?: string })?.code ?? 'UNKNOWN', file: options.file, cwd: options.cwd },
            { cause: error },
          );
      lines.end({ error: true, reason });
    },
  };

  const { cancelSignal } = options;
  if (cancelSignal?.aborted) {
    subscriber.error(cancelledError(cancelSignal.reason, undefined, options.file));
    return undefined;
  }
  const onCancel = (): void => {
    if (done || timedOut || cancelled !== undefined) return;
    cancelled = { reason: cancelSignal?.reason };
    terminate();
  };
  if (cancelSignal !== undefined) {
    cancelSignal.addEventListener('abort', onCancel, { once: true });
    timers.add(() => cancelSignal.removeEventListener('abort', onCancel));
  }

  handle = port.spawn(
    {
      file: options.file,
      args: options.args,
      cwd: options.cwd,
      env: options.env,
      extendEnv: options.extendEnv,
      rlimits: options.rlimits,
      hasInput: options.input !== undefined,
      cleanup: options.cleanup,
      containment: options.containment,
      limits: options.limits,
    },
    events,
  );
  if (lines.upstream.paused) handle.pause();
  if (!done && options.timeoutMs > 0) {
    timers.add(
      scheduler.schedule(() => {
        if (done || cancelled !== undefined) return;
        timedOut = true;
        terminate();
      }, options.timeoutMs),
    );
  }
  if (!done && options.input !== undefined) stopInput = writeInput(options.input, handle, fail);

  return () => {
    stopReading();
    lines.close();
    timers.unsubscribe();
    if (!done) {
      done = true;
      stopInput();
      terminate();
    }
    handle?.destroy();
  };
}

/** The error of a run cancelled through `cancelSignal`, with what it produced so far. */
function cancelledError(
  reason: unknown,
  result: ExecResult | undefined,
  command: string,
): CancelledError<ExecResult> {
  const why = reason instanceof Error && reason.name !== 'AbortError' ? ` (${reason.message})` : '';
  return new CancelledError(
    `Command was cancelled${why}: ${command}`,
    { reason, result },
    {
      cause: reason,
    },
  );
}
