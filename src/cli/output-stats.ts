import { formatBytes } from '../core/format-bytes.js';

/**
 * Running counters the CLI shows in its status line and summary: lines per stream, bytes, and the
 * rate since the start. It counts lines, not pieces: a text piece marked `partial` (a long line
 * cut by `maxLineBytes`) does not end a line, and for a read each `\n` does; a last line
 * without a newline counts too.
 *
 * @example
 * ```ts
 * const stats = createOutputStats(performance.now());
 * stats.add('stdout', 'hello\n');
 * stats.describe(performance.now()); // '0.0s · 1 line · 6 B · 0 lines/s'
 * ```
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
