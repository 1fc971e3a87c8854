import type { Observable } from 'rxjs';
import { onChunk } from '../../adapters/on-chunk.js';
import type { ChunkEvent } from '../../core/chunk.js';
import { isCancelledError } from '../../core/errors/cancelled-error.js';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import { streamChunk } from '../../kernel/protocol/hostcall-outcome.js';
import { stallTimeout } from '../../operators/stall-timeout.js';
import { quoteCommand } from '../../sources/exec/quote-command.js';
import { exec } from '../../sources/exec.js';
import { cliExecOptions, markTerminal } from '../cli-exec-options.js';
import { CliInterruption } from '../cli-interruption.js';
import { mirrorExitCode } from '../exit-code.js';
import type { CliExecCommand } from '../parse-args.js';
import { publishInterruptible } from '../publish-interruptible.js';
import { RunFrameWriter } from '../run-frame-writer.js';
import { endAsData } from '../run-json.js';
import type { CliStreams } from '../text-view.js';
import { whenOutputClosed } from '../when-output-closed.js';
import { openRunPublisher, REDIS_STRICT_EXIT_CODE } from './open-run-publisher.js';

/**
 * `sluice exec --redis <url> --json`: runs the command, publishes it to Redis (as `sluice exec
 * --redis` does) and writes the hostcall wire frames of `sluice exec --json` on stdout — the
 * frames `sluice follow --json` writes for the same run, through the same {@link RunFrameWriter}.
 * The exit status is the command's; with `--redis-strict`, 75 when publishing failed.
 *
 * @example
 * ```ts
 * const code = await runJsonPublished(parseExecArgs(['--redis', url, '--json', '--', 'ls']), process);
 * ```
 */
export async function runJsonPublished(
  run: CliExecCommand,
  io: CliStreams,
  signal?: AbortSignal,
): Promise<number> {
  const store = run.redisStore;
  if (store === undefined) throw new TypeError('runJsonPublished needs `--redis`');
  const label = quoteCommand(run.file, run.args);
  const publisher = await openRunPublisher<ChunkEvent<unknown>>(store, run.runId, label, io);
  const frames = new RunFrameWriter(io, run.wire, run.callId);
  const options = { reject: false, ...cliExecOptions(run, signal, io, { statusLine: false }) };
  const events = (exec(run.file, run.args, options) as Observable<ChunkEvent<unknown>>).pipe(
    markTerminal(options),
    stallTimeout({
      ms: run.stallTimeoutMs,
      logger: { warn: (message) => io.stderr.write(`sluice: ${message}\n`) },
    }),
    publishInterruptible(publisher.operator, signal),
  );
  let next = 0;
  const outputClosed = whenOutputClosed(signal);
  try {
    await onChunk(
      events,
      (event) => {
        next = event.sequence + 1;
        return frames.event(event);
      },
      { bufferSize: run.bufferSize, ...(outputClosed === undefined ? {} : { signal: outputClosed }) },
    );
    return run.redisStrict && publisher.failed() ? REDIS_STRICT_EXIT_CODE : frames.code;
  } catch (error) {
    return await failed(error, next, frames, signal);
  } finally {
    await publisher.close();
  }
}

/** The terminal frames of a run that ended with an error (a cancel by signal, a spawn failure, …). */
async function failed(
  error: unknown,
  next: number,
  frames: RunFrameWriter,
  signal: AbortSignal | undefined,
): Promise<number> {
  const interruption = signal?.reason instanceof CliInterruption ? signal.reason : undefined;
  if (interruption?.outputClosed) return interruption.exitCode;
  const end = endAsData(error, interruption);
  if (end !== undefined) await frames.send(streamChunk(next, end, false));
  const code = isSluiceError(error) ? error.code : 'EXEC_FAILED';
  await frames.failure({ code, name: 'Error', message: (error as Error).message });
  if (isCancelledError(error)) return interruption?.exitCode ?? 130;
  if (code === 'SPAWN_FAILED') {
    const errno = (error as { info?: { errno?: string } }).info?.errno ?? '';
    return mirrorExitCode({ exitCode: null, signal: null, timedOut: false, errno });
  }
  return frames.code;
}
