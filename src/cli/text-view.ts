import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** The streams the CLI writes to (process.stdout / process.stderr, or fakes in tests). */
export interface CliStreams {
  readonly stdout: Writable & { isTTY?: boolean; columns?: number };
  readonly stderr: Writable;
  /** What `--stdin inherit` hands on to the command (process.stdin). */
  readonly stdin?: NodeJS.ReadableStream;
}

const RED = '\x1b[31m';
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
const CLEAR_LINE = '\r\x1b[2K';
const UP_AND_CLEAR = '\x1b[1A\x1b[2K';

/**
 * Renders lines as text. In **live** mode (a terminal) everything goes to the terminal on stdout:
 * each line as it arrives (stderr lines in red, or marked `[stderr]` without colour) with a status
 * line kept at the bottom and redrawn by `status()`. Otherwise stdout lines go to stdout and
 * stderr lines to stderr, untouched.
 *
 * `line()` returns a promise when the destination's buffer is full, so the caller can wait for
 * `'drain'` — that is how a slow terminal or pipe pauses the child.
 *
 * On a terminal the status line is cut to the terminal's width (so it never wraps and each
 * redraw replaces it in place) and redrawn when the terminal is resized; `echo` (the command, as
 * a shell would need it typed) is printed first as `$ …`.
 *
 * @example
 * ```ts
 * const view = createTextView(process, { live: true, color: true });
 * await view.line('stdout', 'hello\n');
 * view.status('0.1s · 1 line · 6 B · 10 lines/s');
 * view.finish('exit 0 · 0.1s · 1 line');
 * ```
 */
export function createTextView(
  io: CliStreams,
  options: { live: boolean; color: boolean; echo?: string | undefined },
) {
  const { live, color } = options;
  let statusText = '';
  let drawn = 0; // visible width of the status line on the screen
  const paint = (text: string, code: string) => (color ? `${code}${text}${RESET}` : text);
  // The status line never wraps: cut to the width (a wrapped one could not be cleared in place).
  const fitWidth = (text: string) => {
    const columns = io.stdout.columns || 80; // 0: a pty with no size
    return text.length < columns ? text : text.slice(0, Math.max(0, columns - 2)) + '…';
  };
  const statusLine = () => {
    const text = fitWidth(statusText);
    drawn = text.length;
    return text === '' ? '' : paint(text, DIM);
  };
  const wait = (stream: Writable, ok: boolean): Promise<void> | undefined =>
    ok ? undefined : once(stream, 'drain').then(() => undefined);
  // On a narrower terminal the last status line may now span several rows (terminals rewrap
  // it): clear them all, then draw it again at the new width.
  const onResize = () => {
    const columns = io.stdout.columns || 80;
    const rows = Math.max(1, Math.ceil(drawn / columns));
    io.stdout.write(`${CLEAR_LINE}${UP_AND_CLEAR.repeat(rows - 1)}${statusLine()}`);
  };
  // Node learns the new size on SIGWINCH, which can come late: look ourselves (an ioctl, at most
  // every 25 ms) before drawing, so a status line is never drawn at a width the terminal left.
  const refreshSize = (io.stdout as { _refreshSize?: () => void })._refreshSize?.bind(io.stdout);
  let lookedAt = 0;
  const lookAtSize = () => {
    const now = performance.now();
    if (refreshSize === undefined || now - lookedAt < 25) return;
    lookedAt = now;
    refreshSize(); // emits 'resize' when the size changed
  };
  if (live) {
    io.stdout.on('resize', onResize);
    if (options.echo !== undefined) io.stdout.write(`${paint(`$ ${options.echo}`, DIM)}\n`);
  }

  return {
    line(kind: 'stdout' | 'stderr', content: string): Promise<void> | undefined {
      const text = content.endsWith('\n') ? content : `${content}\n`;
      if (!live) {
        const stream = kind === 'stderr' ? io.stderr : io.stdout;
        return wait(stream, stream.write(content));
      }
      lookAtSize();
      const shown =
        kind === 'stderr' ? (color ? paint(text.slice(0, -1), RED) + '\n' : `[stderr] ${text}`) : text;
      return wait(io.stdout, io.stdout.write(`${CLEAR_LINE}${shown}${statusLine()}`));
    },
    status(text: string): void {
      statusText = text;
      if (!live) return;
      lookAtSize();
      io.stdout.write(`${CLEAR_LINE}${statusLine()}`);
    },
    finish(summary: string): void {
      if (live) {
        io.stdout.off('resize', onResize);
        io.stdout.write(`${CLEAR_LINE}${paint(summary, DIM)}\n`);
      } else io.stderr.write(`${summary}\n`);
    },
  };
}
