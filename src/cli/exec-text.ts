import { interval, type Observable } from 'rxjs';
import { onChunk } from '../adapters/on-chunk.js';
import type { EndSentinel } from '../core/chunk.js';
import { isCancelledError } from '../core/errors/cancelled-error.js';
import { formatBytes } from '../core/format-bytes.js';
import { formatDuration } from '../core/format-duration.js';
import type { ExecEvent, ExecResult } from '../sources/exec.js';
import { formatUsage } from '../web/page/describe-end.js';
import { interruptionOf, stopOnClosedOutput } from './cli-interruption.js';
import { errorExitCode, mirrorExitCode } from './exit-code.js';
import { type CliStreams, createTextView } from './text-view.js';

/**
 * Shows a running command as text (see {@link createTextView}) and a one-line summary that counts
 * lines. Resolves with the exit code that mirrors the child's, or 128 + the signal of a
 * {@link CliInterruption} once the group is gone (docs/cli.md, "Signals and exit codes").
 */
export async function execAsText(
  events: Observable<ExecEvent<string | Uint8Array> | EndSentinel>,
  io: CliStreams,
  options: TextOutputOptions,
): Promise<number> {
  const startedAt = performance.now();
  const stats = createOutputStats(startedAt);
  const view = createTextView(io, options);
  const ticker = options.live
    ? interval(100).subscribe(() => view.status(stats.describe(performance.now())))
    : undefined;
  const ending: CommandOutcome = { result: undefined, stalled: false, endedBy: undefined };
  const totals = () =>
    `${formatDuration(performance.now() - startedAt)} · ${stats.lines} ${stats.lines === 1 ? 'line' : 'lines'} · ${formatBytes(stats.bytes)}`;
  try {
    await onChunk(events, (event) => showEvent(event, stats, view, ending, options.reads === true), {
      bufferSize: options.bufferSize,
      onError: (error) => io.stderr.write(`sluice: ${String(error)}\n`),
      ...stopOnClosedOutput(options.signal),
    });
  } catch (error) {
    ticker?.unsubscribe();
    return finishAfterError(error, view, options, totals);
  }
  ticker?.unsubscribe();
  return finishAfterEnd(ending, view, options.label, totals);
}

/** Options of {@link execAsText} (and of a run shown on the web page as well, `runWeb`). */
export interface TextOutputOptions {
  live: boolean;
  color: boolean;
  bufferSize: number;
  label: string;
  /** Printed first on a terminal, as `$ …`: the command as a shell would need it typed. */
  echo?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The events are reads of a terminal run (`--tty`: text as the terminal sent it), not lines. */
  reads?: boolean | undefined;
}

/** How the run ended, as its events said: the exit result, a stall, or another final sentinel. */
interface CommandOutcome {
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
  ending: CommandOutcome,
  reads: boolean,
) {
  if (event.kind === 'stdout' || event.kind === 'stderr') {
    const content = event.content as string | Uint8Array;
    // A read of a terminal run ends a line only when it ends with one (a progress bar redrawn
    // with `\r` stays on its row).
    const partial =
      event.metadata?.partial === true || (reads && typeof content === 'string' && !content.endsWith('\n'));
    stats.add(event.kind, content, partial, reads);
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
  options: TextOutputOptions,
  totals: () => string,
): number {
  const interruption = interruptionOf(options.signal);
  if (interruption?.outputClosed) return interruption.exitCode;
  if (isCancelledError(error)) {
    const partial = error.info?.result as ExecResult | undefined;
    const how = partial === undefined ? '' : ` · ${describeExit(partial)}`;
    const by = interruption === undefined ? 'cancelled' : `interrupted by ${interruption.signal}`;
    view.finish(`sluice: ${options.label}: ${by}${how} · ${totals()}`);
  } else view.finish(`sluice: ${options.label}: ${(error as Error).message}`);
  return errorExitCode(error, interruption);
}

/** The summary and exit code of a run whose events ended: the child's exit mirrored, or a stall. */
function finishAfterEnd(ending: CommandOutcome, view: TextView, label: string, totals: () => string): number {
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

/**
 * Running counters the CLI shows in its status line and summary: lines per stream, bytes, and the
 * rate since the start. It counts lines, not pieces: a text piece marked `partial` (a long line
 * cut by `maxLineBytes`) does not end a line, and for a read each `\n` does; a last line
 * without a newline counts too.
 */
export function createOutputStats(startedAt: number) {
  const ended = { stdout: 0, stderr: 0 };
  const open = { stdout: false, stderr: false };
  let bytes = 0;
  const count = (kind: 'stdout' | 'stderr') => ended[kind] + (open[kind] ? 1 : 0);
  return {
    /**
     * One event's content: a decoded line (or a `partial` piece of one), or a read (its bytes, or
     * with `read` its text: a terminal run's reads, `--tty`).
     */
    add(kind: 'stdout' | 'stderr', content: string | Uint8Array, partial = false, read = false): void {
      if (typeof content === 'string' && read) {
        bytes += Buffer.byteLength(content);
        for (let at = content.indexOf('\n'); at !== -1; at = content.indexOf('\n', at + 1)) ended[kind] += 1;
        if (content !== '') open[kind] = !content.endsWith('\n');
        return;
      }
      if (typeof content === 'string') {
        bytes += Buffer.byteLength(content);
        if (partial) open[kind] = true;
        else {
          ended[kind] += 1;
          open[kind] = false;
        }
        return;
      }
      if (content.length === 0) return;
      bytes += content.length;
      for (let at = content.indexOf(10); at !== -1; at = content.indexOf(10, at + 1)) ended[kind] += 1;
      open[kind] = content[content.length - 1] !== 10;
    },
    get lines(): number {
      return count('stdout') + count('stderr');
    },
    get stderrLines(): number {
      return count('stderr');
    },
    get bytes(): number {
      return bytes;
    },
    describe(now: number): string {
      const elapsed = Math.max(0, now - startedAt);
      const lines = count('stdout') + count('stderr');
      const rate = elapsed > 0 ? Math.round((lines * 1000) / elapsed) : 0;
      const stderrLines = count('stderr');
      const errPart = stderrLines > 0 ? ` (${stderrLines} stderr)` : '';
      return `${(elapsed / 1000).toFixed(1)}s · ${lines} ${lines === 1 ? 'line' : 'lines'}${errPart} · ${formatBytes(bytes)} · ${rate} lines/s`;
    },
  };
}
