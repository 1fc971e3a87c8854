import { interval, type Observable } from 'rxjs';
import { onChunk } from '../adapters/on-chunk.js';
import type { ChunkEvent } from '../core/chunk.js';
import { isSluiceError } from '../core/errors/sluice-error.js';
import type { SpawnErrorInfo } from '../core/errors/spawn-error.js';
import type { ExecEvent, ExecResult } from '../sources/exec.js';
import { mirrorExitCode } from './exit-code.js';
import { formatBytes, formatDuration } from './format.js';
import { createOutputStats } from './output-stats.js';
import { type CliStreams, createTextView } from './text-view.js';

/**
 * Shows a running command as text: each line as it arrives, a live status line on a terminal,
 * and a one-line summary at the end. Writes wait for `'drain'`, so a slow terminal or pipe pauses
 * the child through sluice's demand. Resolves with the exit code that mirrors the child's.
 *
 * @example
 * ```ts
 * const code = await runText(exec('make', [], { reject: false }), process, { live: true, color: true, bufferSize: 16 });
 * ```
 */
export async function runText(
  events: Observable<ExecEvent | ChunkEvent<never>>,
  io: CliStreams,
  options: {
    live: boolean;
    color: boolean;
    bufferSize: number;
    label: string;
    /** Printed first on a terminal, as `$ …`: the command as a shell would need it typed. */
    echo?: string | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<number> {
  const startedAt = performance.now();
  const stats = createOutputStats(startedAt);
  const view = createTextView(io, options);
  const ticker = options.live
    ? interval(100).subscribe(() => view.status(stats.describe(performance.now())))
    : undefined;
  let result: ExecResult | undefined;
  let stalled = false;
  let endedBy: string | undefined; // a final sentinel other than a stall: cancelled from elsewhere
  try {
    await onChunk(
      events,
      (event) => {
        if (event.kind === 'stdout' || event.kind === 'stderr') {
          stats.add(event.kind, event.content as string);
          return view.line(event.kind, event.content as string);
        }
        if (event.kind === 'exit') result = event.content as ExecResult;
        else if (event.metadata?.reason === 'stalled') stalled = true;
        else if (event.isFinal) endedBy = String(event.metadata?.reason ?? event.kind);
        return undefined;
      },
      {
        bufferSize: options.bufferSize,
        onError: (error) => io.stderr.write(`sluice: ${String(error)}\n`),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    );
  } catch (error) {
    ticker?.unsubscribe();
    const errno = isSluiceError(error, 'SPAWN_FAILED') ? (error.info as SpawnErrorInfo).errno : undefined;
    view.finish(`sluice: ${options.label}: ${(error as Error).message}`);
    if (errno !== undefined) return mirrorExitCode({ exitCode: null, signal: null, timedOut: false, errno });
    return options.signal?.aborted ? 130 : 1;
  }
  ticker?.unsubscribe();
  const elapsed = formatDuration(performance.now() - startedAt);
  const totals = `${stats.lines} ${stats.lines === 1 ? 'line' : 'lines'} · ${formatBytes(stats.bytes)}`;
  if (endedBy !== undefined) {
    view.finish(`sluice: ${options.label}: ${endedBy} · ${elapsed} · ${totals}`);
    return 130;
  }
  if (stalled || result === undefined) {
    view.finish(`sluice: ${options.label}: stalled (output was not read) · ${elapsed} · ${totals}`);
    return mirrorExitCode({ exitCode: null, signal: null, timedOut: false, stalled: true });
  }
  const how = result.timedOut
    ? 'timed out'
    : result.signal !== null
      ? `killed by ${result.signal}`
      : `exit ${result.exitCode}`;
  const limit = result.rlimitHit === null ? '' : ` · ${result.rlimitHit} limit hit`;
  const cut = result.truncated ? ' · result truncated' : '';
  view.finish(`sluice: ${options.label}: ${how} · ${elapsed} · ${totals}${limit}${cut}`);
  return mirrorExitCode(result);
}
