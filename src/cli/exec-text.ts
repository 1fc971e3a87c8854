import { interval, type Observable } from 'rxjs';
import { onChunk } from '../adapters/on-chunk.js';
import type { EndSentinel } from '../core/chunk.js';
import { isCancelledError } from '../core/errors/cancelled-error.js';
import { isSpawnError } from '../core/errors/spawn-error.js';
import { formatBytes } from '../core/format-bytes.js';
import { formatDuration } from '../core/format-duration.js';
import { formatUsage } from '../core/format-usage.js';
import type { ExecEvent, ExecResult } from '../sources/exec.js';
import { CliInterruption } from './cli-interruption.js';
import { failureExitCode, mirrorExitCode } from './exit-code.js';
import { createOutputStats } from './output-stats.js';
import { type CliStreams, createTextView } from './text-view.js';
import { whenOutputClosed } from './when-output-closed.js';

/**
 * Shows a running command as text: what it writes as it arrives (on a pipe, its bytes unchanged;
 * on a terminal, line by line under a live status line) and a one-line summary at the end that
 * counts lines, not pieces. Writes wait for `'drain'`, so a slow terminal or pipe pauses the child
 * through sluice's demand. Resolves with the exit code that mirrors the child's — or, when
 * `signal` aborted with a {@link CliInterruption}, 128 + its signal, once the group is gone (the
 * run was cancelled through `exec`'s `cancelSignal`; the summary says by which signal); a closed
 * output ends at once and quietly.
 *
 * @example
 * ```ts
 * const code = await runText(exec('make', [], { reject: false }), process, { live: true, color: true, bufferSize: 16, label: 'make' });
 * ```
 */
export async function runText(
  events: Observable<ExecEvent<string | Uint8Array> | EndSentinel>,
  io: CliStreams,
  options: TextRunOptions,
): Promise<number> {
  const startedAt = performance.now();
  const stats = createOutputStats(startedAt);
  const view = createTextView(io, options);
  const ticker = options.live
    ? interval(100).subscribe(() => view.status(stats.describe(performance.now())))
    : undefined;
  const outputClosed = whenOutputClosed(options.signal);
  const ending: RunEnding = { result: undefined, stalled: false, endedBy: undefined };
  const totals = () =>
    `${formatDuration(performance.now() - startedAt)} · ${stats.lines} ${stats.lines === 1 ? 'line' : 'lines'} · ${formatBytes(stats.bytes)}`;
  try {
    await onChunk(events, (event) => showEvent(event, stats, view, ending), {
      bufferSize: options.bufferSize,
      onError: (error) => io.stderr.write(`sluice: ${String(error)}\n`),
      ...(outputClosed === undefined ? {} : { signal: outputClosed }),
    });
  } catch (error) {
    ticker?.unsubscribe();
    return finishAfterError(error, view, options, totals);
  }
  ticker?.unsubscribe();
  return finishAfterEnd(ending, view, options.label, totals);
}

/** Options of {@link runText} (and of a run shown on the web page as well, `runWeb`). */
export interface TextRunOptions {
  live: boolean;
  color: boolean;
  bufferSize: number;
  label: string;
  /** Printed first on a terminal, as `$ …`: the command as a shell would need it typed. */
  echo?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** How the run ended, as its events said: the exit result, a stall, or another final sentinel. */
interface RunEnding {
  result: ExecResult | undefined;
  stalled: boolean;
  /** A final sentinel other than a stall: cancelled from elsewhere. */
  endedBy: string | undefined;
}

type TextView = ReturnType<typeof createTextView>;

/** Shows an output event (its promise is the view's write: the demand) or notes how the run ended. */
function showEvent(
  event: ExecEvent<string | Uint8Array> | EndSentinel,
  stats: ReturnType<typeof createOutputStats>,
  view: TextView,
  ending: RunEnding,
) {
  if (event.kind === 'stdout' || event.kind === 'stderr') {
    const content = event.content as string | Uint8Array;
    const partial = event.metadata?.partial === true;
    stats.add(event.kind, content, partial);
    return view.line(event.kind, content, partial);
  }
  if (event.kind === 'exit') ending.result = event.content as ExecResult;
  else if (event.metadata?.reason === 'stalled') ending.stalled = true;
  else if (event.isFinal) ending.endedBy = String(event.metadata?.reason ?? event.kind);
  return undefined;
}

/** The summary and exit code of a run that failed: interrupted, cancelled, not started, or broken. */
function finishAfterError(
  error: unknown,
  view: TextView,
  options: TextRunOptions,
  totals: () => string,
): number {
  const reason: unknown = options.signal?.reason;
  const interruption = reason instanceof CliInterruption ? reason : undefined;
  if (interruption?.outputClosed) return interruption.exitCode;
  if (isCancelledError(error)) {
    const partial = error.info?.result as ExecResult | undefined;
    const how = partial === undefined ? '' : ` · ${describeExit(partial)}`;
    const by = interruption === undefined ? 'cancelled' : `interrupted by ${interruption.signal}`;
    view.finish(`sluice: ${options.label}: ${by}${how} · ${totals()}`);
    return interruption?.exitCode ?? 130;
  }
  view.finish(`sluice: ${options.label}: ${(error as Error).message}`);
  if (isSpawnError(error)) return failureExitCode(error);
  return 1;
}

/** The summary and exit code of a run whose events ended: the child's exit mirrored, or a stall. */
function finishAfterEnd(ending: RunEnding, view: TextView, label: string, totals: () => string): number {
  const { result, stalled, endedBy } = ending;
  if (endedBy !== undefined) {
    view.finish(`sluice: ${label}: ${endedBy} · ${totals()}`);
    return 130;
  }
  if (stalled || result === undefined) {
    view.finish(`sluice: ${label}: stalled (output was not read) · ${totals()}`);
    return mirrorExitCode({ exitCode: null, signal: null, timedOut: false, stalled: true });
  }
  const hit = result.rlimitHit ?? result.limitHit;
  const limit = hit === null ? '' : ` · ${hit} limit hit`;
  const usage = formatUsage(result.usage);
  // Every byte was shown: `truncated` (the in-memory result's cap) says nothing about the output.
  view.finish(`sluice: ${label}: ${describeExit(result)} · ${totals()}${limit}${usage && ` · ${usage}`}`);
  return mirrorExitCode(result);
}

function describeExit(result: ExecResult): string {
  if (result.timedOut) return 'timed out';
  if (result.signal !== null) return `killed by ${result.signal}`;
  return `exit ${result.exitCode}`;
}
