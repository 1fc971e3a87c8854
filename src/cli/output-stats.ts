import { formatBytes } from './format.js';

/**
 * Running counters the CLI shows in its status line and summary: lines per stream, bytes, and the
 * rate since the start.
 *
 * @example
 * ```ts
 * const stats = createOutputStats(performance.now());
 * stats.add('stdout', 'hello\n');
 * stats.describe(performance.now()); // '0.0s · 1 line · 6 B · 0 lines/s'
 * ```
 */
export function createOutputStats(startedAt: number) {
  let stdoutLines = 0;
  let stderrLines = 0;
  let bytes = 0;
  return {
    add(kind: 'stdout' | 'stderr', content: string): void {
      if (kind === 'stdout') stdoutLines += 1;
      else stderrLines += 1;
      bytes += Buffer.byteLength(content);
    },
    get lines(): number {
      return stdoutLines + stderrLines;
    },
    get stderrLines(): number {
      return stderrLines;
    },
    get bytes(): number {
      return bytes;
    },
    describe(now: number): string {
      const elapsed = Math.max(0, now - startedAt);
      const lines = stdoutLines + stderrLines;
      const rate = elapsed > 0 ? Math.round((lines * 1000) / elapsed) : 0;
      const errPart = stderrLines > 0 ? ` (${stderrLines} stderr)` : '';
      return `${(elapsed / 1000).toFixed(1)}s · ${lines} ${lines === 1 ? 'line' : 'lines'}${errPart} · ${formatBytes(bytes)} · ${rate} lines/s`;
    },
  };
}
