import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** The streams the CLI writes to (process.stdout / process.stderr, or fakes in tests). */
export interface CliStreams {
  readonly stdout: Writable & { isTTY?: boolean; columns?: number };
  readonly stderr: Writable;
}

const RED = '\x1b[31m';
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
const CLEAR_LINE = '\r\x1b[2K';

/**
 * Renders lines as text. In **live** mode (a terminal) everything goes to the terminal on stdout:
 * each line as it arrives (stderr lines in red, or marked `[stderr]` without colour) with a status
 * line kept at the bottom and redrawn by `status()`. Otherwise stdout lines go to stdout and
 * stderr lines to stderr, untouched.
 *
 * `line()` returns a promise when the destination's buffer is full, so the caller can wait for
 * `'drain'` — that is how a slow terminal or pipe pauses the child.
 *
 * @example
 * ```ts
 * const view = createTextView(process, { live: true, color: true });
 * await view.line('stdout', 'hello\n');
 * view.status('0.1s · 1 line · 6 B · 10 lines/s');
 * view.finish('exit 0 · 0.1s · 1 line');
 * ```
 */
export function createTextView(io: CliStreams, options: { live: boolean; color: boolean }) {
  const { live, color } = options;
  let statusText = '';
  const paint = (text: string, code: string) => (color ? `${code}${text}${RESET}` : text);
  const statusLine = () => (statusText === '' ? '' : paint(statusText, DIM));
  const wait = (stream: Writable, ok: boolean): Promise<void> | undefined =>
    ok ? undefined : once(stream, 'drain').then(() => undefined);

  return {
    line(kind: 'stdout' | 'stderr', content: string): Promise<void> | undefined {
      const text = content.endsWith('\n') ? content : `${content}\n`;
      if (!live) {
        const stream = kind === 'stderr' ? io.stderr : io.stdout;
        return wait(stream, stream.write(content));
      }
      const shown =
        kind === 'stderr' ? (color ? paint(text.slice(0, -1), RED) + '\n' : `[stderr] ${text}`) : text;
      return wait(io.stdout, io.stdout.write(`${CLEAR_LINE}${shown}${statusLine()}`));
    },
    status(text: string): void {
      statusText = text;
      if (live) io.stdout.write(`${CLEAR_LINE}${statusLine()}`);
    },
    finish(summary: string): void {
      if (live) io.stdout.write(`${CLEAR_LINE}${paint(summary, DIM)}\n`);
      else io.stderr.write(`${summary}\n`);
    },
  };
}
