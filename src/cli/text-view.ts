import type { Writable } from 'node:stream';
import { writePaced } from './write-paced.js';

/** The streams the CLI writes to (process.stdout / process.stderr, or fakes in tests). */
export interface CliStreams {
  readonly stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
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
 * Renders the command's output. On a terminal (**live**) everything goes to stdout: each line as
 * it arrives (stderr in red, or marked `[stderr]` without colour), `partial` pieces of a long line
 * one after the other, and a status line kept at the bottom, cut to the terminal's width and
 * redrawn by `status()` once the line has ended. Elsewhere (a pipe, a file) the bytes pass through
 * unchanged, stderr to stderr. `line()` returns a promise while the destination is full: that is
 * how a slow terminal or pipe pauses the child.
 */
export function createTextView(
  io: CliStreams,
  options: { live: boolean; color: boolean; echo?: string | undefined },
) {
  const { live, color } = options;
  let statusText = '';
  let drawn = 0; // visible width of the status line on the screen
  /** The kind of the line a partial piece left unfinished on the terminal, if any. */
  let openLine: 'stdout' | 'stderr' | undefined;
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
  // On a narrower terminal the last status line may now span several rows (terminals rewrap
  // it): clear them all, then draw it again at the new width.
  const onResize = () => {
    if (openLine !== undefined || io.stdout.destroyed) return;
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
    line(
      kind: 'stdout' | 'stderr',
      content: string | Uint8Array,
      partial = false,
    ): Promise<void> | undefined {
      if (!live) return writePaced(kind === 'stderr' ? io.stderr : io.stdout, content);
      lookAtSize();
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
      if (!live || openLine !== undefined || io.stdout.destroyed) return;
      lookAtSize();
      io.stdout.write(`${CLEAR_LINE}${statusLine()}`);
    },
    finish(summary: string): void {
      if (live) {
        io.stdout.off('resize', onResize);
        if (!io.stdout.destroyed)
          io.stdout.write(`${openLine === undefined ? CLEAR_LINE : '\n'}${paint(summary, DIM)}\n`);
      } else if (!io.stderr.destroyed) io.stderr.write(`${summary}\n`);
      openLine = undefined;
    },
  };
}
