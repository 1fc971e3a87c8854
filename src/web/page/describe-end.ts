import { formatDuration } from '../../core/format-duration.js';
import type { ExecUsage } from '../../sources/exec/exec-result.js';

/**
 * How a run ended, as the page shows it: `state` (the `data-state` of the page, which styles it)
 * and a sentence.
 */
export interface EndDescription {
  readonly state: 'exited' | 'killed' | 'timed-out' | 'cancelled' | 'stalled' | 'failed' | 'gone';
  /** A few words for the header (`exit 0`, `SIGTERM`, `cancelled`, …). */
  readonly label: string;
  /** A sentence for the footer. */
  readonly text: string;
  /** Whether it ended well (exit code 0). */
  readonly ok: boolean;
  /** The run's own duration, when the final event says. */
  readonly durationMs?: number;
}

/**
 * Describes a run's final event (`exit` from `exec`, or an `end` sentinel with its `reason`).
 * `cancelledHere` says whether this page asked for the cancel.
 */
export function describeEnd(
  event: { kind: string; content: unknown; metadata?: Readonly<Record<string, unknown>> },
  cancelledHere: boolean,
): EndDescription {
  if (event.kind === 'exit' && typeof event.content === 'object' && event.content !== null) {
    const result = event.content as {
      exitCode?: number | null;
      signal?: string | null;
      timedOut?: boolean;
      durationMs?: number;
      usage?: ExecUsage | null;
    };
    const durationMs = typeof result.durationMs === 'number' ? result.durationMs : undefined;
    // What the run used (with a cgroup) follows the duration: `… after 3.2s · cpu 0.84s (…)`.
    const used = typeof result.usage?.cpuUserMs === 'number' ? ` · ${formatUsage(result.usage)}` : '';
    const after = `${durationMs === undefined ? '' : ` after ${formatDuration(durationMs)}`}${used}`;
    const timing = durationMs === undefined ? {} : { durationMs };
    if (result.timedOut) {
      return { state: 'timed-out', label: 'timed out', text: `Timed out${after}`, ok: false, ...timing };
    }
    if (typeof result.signal === 'string') {
      const text = `Killed by ${result.signal}${after}`;
      return { state: 'killed', label: result.signal, text, ok: false, ...timing };
    }
    const code = result.exitCode ?? null;
    const text = `Exited with code ${code}${after}`;
    return { state: 'exited', label: `exit ${code}`, text, ok: code === 0, ...timing };
  }
  const reason = event.metadata?.reason;
  if (reason === 'cancelled') {
    const by = event.metadata?.by;
    const text =
      by === 'page'
        ? cancelledHere
          ? 'Cancelled from this page'
          : 'Cancelled from another page'
        : by === 'terminal'
          ? 'Cancelled from the terminal'
          : by === 'server'
            ? 'Stopped: the server shut down'
            : 'Cancelled';
    return { state: 'cancelled', label: by === 'server' ? 'stopped' : 'cancelled', text, ok: false };
  }
  if (reason === 'stalled') {
    return { state: 'stalled', label: 'stalled', text: 'Stalled: its output was not read', ok: false };
  }
  if (typeof reason === 'string')
    return { state: 'failed', label: reason, text: `Ended: ${reason}`, ok: false };
  return { state: 'exited', label: 'ended', text: 'Ended', ok: true };
}

/** Describes why following a run failed: the server gone, the run not held, access refused, `OWNER_LOST`, or the run's own failure. */
export function describeFailure(error: unknown): EndDescription {
  const code = (error as { code?: unknown } | null)?.code;
  const status = (error as { info?: { status?: unknown } } | null)?.info?.status;
  if (code === 'HTTP_FAILED') {
    return { state: 'gone', label: 'server gone', text: 'Connection lost: the server is gone', ok: false };
  }
  if (code === 'HTTP_STATUS' && status === 404) {
    return { state: 'gone', label: 'gone', text: 'This run is no longer held by the server', ok: false };
  }
  if (code === 'HTTP_STATUS' && (status === 401 || status === 403)) {
    return {
      state: 'failed',
      label: 'refused',
      text: 'Refused: open the URL sluice printed (with its token)',
      ok: false,
    };
  }
  if (code === 'OWNER_LOST') {
    return {
      state: 'failed',
      label: 'owner lost',
      text: 'Lost: what ran the command stopped renewing its lease (it died or was cut off)',
      ok: false,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { state: 'failed', label: 'failed', text: `Failed: ${message}`, ok: false };
}

/**
 * What a run used, in a few words for people — the CLI's summary line and the live page's footer
 * show it: `cpu 0.84s (0.80s user, 0.04s system)`, then where the controllers gave them
 * `peak memory 12.3 MiB` and `at most 3 processes`. `null` usage (a run without a cgroup) gives `''`.
 */
export function formatUsage(usage: ExecUsage | null | undefined): string {
  if (usage === null || usage === undefined) return '';
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)}s`;
  const parts = [
    `cpu ${seconds(usage.cpuUserMs + usage.cpuSystemMs)} (${seconds(usage.cpuUserMs)} user, ${seconds(usage.cpuSystemMs)} system)`,
  ];
  if (usage.memoryPeakBytes !== undefined) {
    parts.push(`peak memory ${(usage.memoryPeakBytes / 1024 / 1024).toFixed(1)} MiB`);
  }
  if (usage.pidsPeak !== undefined) parts.push(`at most ${usage.pidsPeak} processes`);
  return parts.join(' · ');
}
