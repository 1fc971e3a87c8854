import { onChunk } from '../adapters/on-chunk.js';
import type { ChunkEvent } from '../core/chunk.js';
import { isCancelledError } from '../core/errors/cancelled-error.js';
import { isExecError } from '../core/errors/exec-error.js';
import { isSluiceError } from '../core/errors/sluice-error.js';
import { isSpawnError } from '../core/errors/spawn-error.js';
import { mapDirect } from '../core/map-direct.js';
import { execEventToChunk } from '../kernel/host/exec-event-to-chunk.js';
import { execExitInfo } from '../kernel/host/exec-exit-info.js';
import { bridgeCodec } from '../kernel/protocol/bridge-codec.js';
import { encodeFrame } from '../kernel/protocol/hostcall-frame.js';
import { failure, type HostcallOutcome, streamChunk } from '../kernel/protocol/hostcall-outcome.js';
import type { JsonValue } from '../kernel/protocol/json-value.js';
import { serdeCodec } from '../kernel/protocol/serde-codec.js';
import { stallTimeout } from '../operators/stall-timeout.js';
import { type ExecResult, exec } from '../sources/exec.js';
import { cliExecOptions } from './cli-exec-options.js';
import { CliInterruption } from './cli-interruption.js';
import { failureExitCode, mirrorExitCode } from './exit-code.js';
import { NdjsonWriter } from './ndjson-writer.js';
import type { CliExecCommand } from './parse-args.js';
import { textFrameEncoder } from './text-frame-encoder.js';
import type { CliStreams } from './text-view.js';
import { whenOutputClosed } from './when-output-closed.js';

/**
 * `sluice exec --json`: writes one NDJSON `{callId, outcome}` frame per chunk on stdout, in the
 * hostcall wire format (`--wire bridge|serde`), exactly as a sluice host would deliver a streaming
 * `exec` hostcall: stdout lines as bare strings, stderr lines as `{ "stderr": "…" }`, then exactly
 * one terminal frame:
 *
 * - the final chunk with the exit info, for a command that exited 0;
 * - a null final chunk after a stall;
 * - otherwise one `Error` outcome (`EXEC_FAILED`, `TIMEOUT`, `CANCELLED` when sluice was
 *   interrupted by a signal, `SPAWN_FAILED`, …), preceded by one last non-final chunk that carries
 *   the end as data: `{ "exit": { exit_code, signal, timed_out, truncated, rlimit_hit,
 *   duration_ms, cancelled_by? } }`, or `{ "spawn_error": { errno, syscall?, path? } }`.
 *
 * On a fatal signal the command's group is killed and its last lines, that chunk and the `Error`
 * are still written (see docs/protocol.md). A closed stdout stops everything at once. The frames
 * of one read go out in one write ({@link NdjsonWriter}); writes wait for `'drain'`, so a slow
 * reader pauses the command.
 *
 * @example
 * ```ts
 * const code = await runJson(parseExecArgs(['--json', '--', 'ls']), process);
 * ```
 */
export async function runJson(run: CliExecCommand, io: CliStreams, signal?: AbortSignal): Promise<number> {
  const codec = run.wire === 'serde' ? serdeCodec : bridgeCodec;
  const out = new NdjsonWriter(io.stdout);
  const send = (outcome: HostcallOutcome): Promise<void> | undefined =>
    out.write(encodeFrame({ callId: run.callId, outcome }, codec));
  const textFrame = textFrameEncoder(run.callId, codec);
  // `mapDirect`: without a stall timeout, `exec` pushes its lines straight into `onChunk`'s queue
  // (no queue of its own and no subscriber chain per line: docs/performance.md, "`--json` without a
  // queue of its own").
  const events = exec(run.file, run.args, { reject: true, ...cliExecOptions(run, signal) }).pipe(
    mapDirect(execEventToChunk),
    stallTimeout<ChunkEvent<JsonValue>>({
      ms: run.stallTimeoutMs,
      logger: { warn: (message) => io.stderr.write(`sluice: ${message}\n`) },
    }),
  );
  let code = 0;
  let next = 0;
  const outputClosed = whenOutputClosed(signal);
  try {
    await onChunk(
      events,
      (event) => {
        next = event.sequence + 1;
        if (event.metadata?.reason === 'stalled') code = 124;
        else if (event.isFinal) code = mirrorExitCode(exitOf(event.content));
        if (typeof event.content === 'string' && !event.isFinal) {
          return out.write(textFrame(event.sequence, event.content));
        }
        return send(streamChunk(event.sequence, event.content ?? null, event.isFinal));
      },
      { bufferSize: run.bufferSize, ...(outputClosed === undefined ? {} : { signal: outputClosed }) },
    );
    await out.flush();
    return code;
  } catch (error) {
    const interruption = signal?.reason instanceof CliInterruption ? signal.reason : undefined;
    if (interruption?.outputClosed) return interruption.exitCode;
    const end = endAsData(error, interruption);
    if (end !== undefined) await send(streamChunk(next, end, false));
    await send(failure(isSluiceError(error) ? error.code : 'EXEC_FAILED', (error as Error).message));
    await out.flush();
    if (isCancelledError(error)) return interruption?.exitCode ?? 130;
    if (isExecError(error)) return mirrorExitCode(error.result);
    if (isSpawnError(error)) return failureExitCode(error);
    return 1;
  }
}

/** The last chunk before the `Error`: how the command ended, as fields a program can read. */
export function endAsData(error: unknown, interruption: CliInterruption | undefined): JsonValue | undefined {
  if (isCancelledError(error)) {
    const result = error.info?.result as ExecResult | undefined;
    if (result === undefined) return undefined;
    const exit: Record<string, JsonValue> = execExitInfo(result);
    if (interruption !== undefined) exit.cancelled_by = interruption.signal;
    return { exit };
  }
  if (isExecError(error)) return { exit: execExitInfo(error.result) };
  if (isSpawnError(error) && error.info !== undefined) {
    const { errno, syscall, path } = error.info;
    return {
      spawn_error: {
        errno,
        ...(syscall === undefined ? {} : { syscall }),
        ...(path === undefined ? {} : { path }),
      },
    };
  }
  return undefined;
}

function exitOf(content: JsonValue | null): {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
} {
  const info = (content ?? {}) as { exit_code?: number | null; signal?: string | null; timed_out?: boolean };
  return { exitCode: info.exit_code ?? null, signal: info.signal ?? null, timedOut: info.timed_out === true };
}
