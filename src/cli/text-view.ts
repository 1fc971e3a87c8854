import type { Writable } from 'node:stream';
import { writePaced } from './write-paced.js';

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
 * Renders the command's output. In **live** mode (a terminal) everything goes to the terminal on
 * stdout: each line as it arrives (stderr lines in red, or marked `[stderr]` without colour) with
 * a status line kept at the bottom and redrawn by `status()`. A long line comes in `partial`
 * pieces: they are written one after the other, so the terminal shows the line whole, and the
 * status line waits until the line has ended. Otherwise (a pipe, a file) stdout output goes to
 * stdout and stderr output to stderr, exactly as given: bytes pass through unchanged.
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
  /** The kind of the line a partial piece left unfinished on the terminal, if any. */
  let openLine: 'stdout' | 'stderr' | undefined;
  const paint = (text: string, code: string) => (color ? `${code}${text}${RESET}` : text);
  const statusLine = () => (statusText === '' ? '' : paint(statusText, DIM));

  return {
    line(
      kind: 'stdout' | 'stderr',
      content: string | Uint8Array,
      partial = false,
    ): Promise<void> | undefined {
      if (!live) return writePaced(kind === 'stderr' ? io.stderr : io.stdout, content);
      const text = typeof content === 'string' ? content : Buffer.from(content).toString();
      // A line of the other pipe cannot go in the middle of this one: end the row first.
      let head = openLine === undefined ? CLEAR_LINE : openLine === kind ? '' : `\n${CLEAR_LINE}`;
      if (kind === 'stderr' && !color && openLine !== kind) head += '[stderr] ';
      const ends = !partial;
      const body = ends && !text.endsWith('\n') ? `${text}\n` : text;
      const shown =
        kind === 'stderr' && color ? paint(body.replace(/\n$/, ''), RED) + (ends ? '\n' : '') : body;
      openLine = ends ? undefined : kind;
      return writePaced(io.stdout, `${head}${shown}${ends ? statusLine() : ''}`);
    },
    status(text: string): void {
      statusText = text;
      if (live && openLine === undefined && !io.stdout.destroyed)
        io.stdout.write(`${CLEAR_LINE}${statusLine()}`);
    },
    finish(summary: string): void {
      if (live) {
        if (!io.stdout.destroyed)
          io.stdout.write(`${openLine === undefined ? CLEAR_LINE : '\n'}${paint(summary, DIM)}\n`);
      } else if (!io.stderr.destroyed) io.stderr.write(`${summary}\n`);
      openLine = undefined;
    },
  };
}
