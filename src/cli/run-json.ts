import { once } from 'node:events';
import { map } from 'rxjs';
import { onChunk } from '../adapters/on-chunk.js';
import type { ChunkEvent } from '../core/chunk.js';
import { isExecError } from '../core/errors/exec-error.js';
import { isSluiceError } from '../core/errors/sluice-error.js';
import type { SpawnErrorInfo } from '../core/errors/spawn-error.js';
import { execEventToChunk } from '../kernel/host/exec-event-to-chunk.js';
import { bridgeCodec } from '../kernel/protocol/bridge-codec.js';
import { encodeFrame } from '../kernel/protocol/hostcall-frame.js';
import { failure, type HostcallOutcome, streamChunk } from '../kernel/protocol/hostcall-outcome.js';
import type { JsonValue } from '../kernel/protocol/json-value.js';
import { serdeCodec } from '../kernel/protocol/serde-codec.js';
import { stallTimeout } from '../operators/stall-timeout.js';
import { exec } from '../sources/exec.js';
import { mirrorExitCode } from './exit-code.js';
import type { CliExecCommand } from './parse-args.js';
import type { CliStreams } from './text-view.js';

/**
 * `sluice exec --json`: writes one NDJSON `{callId, outcome}` frame per chunk on stdout, in the
 * hostcall wire format (`--wire bridge|serde`), exactly as a sluice host would deliver a streaming
 * `exec` hostcall: stdout lines as bare strings, stderr lines as `{ "stderr": "…" }`, and a final
 * chunk with the exit info — or, after the lines, one `Error` outcome (`EXEC_FAILED`, `TIMEOUT`,
 * `SPAWN_FAILED`) for a command that failed, and a null final chunk after a stall. Writes wait for
 * `'drain'`, so a slow reader pauses the command.
 *
 * @example
 * ```ts
 * const code = await runJson(parseCliArgs(['exec', '--json', '--', 'ls']) as CliExecCommand, process);
 * ```
 */
export async function runJson(run: CliExecCommand, io: CliStreams, signal?: AbortSignal): Promise<number> {
  const codec = run.wire === 'serde' ? serdeCodec : bridgeCodec;
  const write = (outcome: HostcallOutcome): Promise<void> | undefined => {
    const ok = io.stdout.write(encodeFrame({ callId: run.callId, outcome }, codec));
    return ok ? undefined : once(io.stdout, 'drain').then(() => undefined);
  };
  const events = exec(run.file, run.args, {
    reject: true,
    timeoutMs: run.timeoutMs,
    maxOutputBytes: run.maxOutputBytes,
    ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
  }).pipe(
    map(execEventToChunk),
    stallTimeout<ChunkEvent<JsonValue>>({
      ms: run.stallTimeoutMs,
      logger: { warn: (message) => io.stderr.write(`sluice: ${message}\n`) },
    }),
  );
  let code = 0;
  try {
    await onChunk(
      events,
      (event) => {
        if (event.metadata?.reason === 'stalled') code = 124;
        else if (event.isFinal) code = mirrorExitCode(exitOf(event.content));
        return write(streamChunk(event.sequence, event.content ?? null, event.isFinal));
      },
      { bufferSize: run.bufferSize, ...(signal === undefined ? {} : { signal }) },
    );
    return code;
  } catch (error) {
    if (signal?.aborted) return 130;
    const code = isSluiceError(error) ? error.code : 'EXEC_FAILED';
    await write(failure(code, (error as Error).message));
    if (isExecError(error)) return mirrorExitCode(error.result);
    if (isSluiceError(error, 'SPAWN_FAILED')) {
      const { errno } = error.info as SpawnErrorInfo;
      return mirrorExitCode({ exitCode: null, signal: null, timedOut: false, errno });
    }
    return 1;
  }
}

function exitOf(content: JsonValue | null): {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
} {
  const info = (content ?? {}) as { exit_code?: number | null; signal?: string | null; timed_out?: boolean };
  return { exitCode: info.exit_code ?? null, signal: info.signal ?? null, timedOut: info.timed_out === true };
}
