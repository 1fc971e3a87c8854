import type { OperatorFunction } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { requirePeer } from '../core/load-peer.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { readBoolean } from '../core/read-boolean.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { readTerminalSize } from '../core/terminal-size.js';

type XtermHeadless = typeof import('@xterm/headless');
type XtermTerminal = InstanceType<XtermHeadless['Terminal']>;
type SerializeAddon = InstanceType<typeof import('@xterm/addon-serialize')['SerializeAddon']>;

/** Options of {@link renderTerminal}. */
export interface RenderTerminalConfig {
  /** The terminal's width: give the run's (`exec`'s `tty.columns`). Default 80. */
  readonly columns?: number;
  /** The terminal's height: give the run's (`exec`'s `tty.rows`). Default 24. */
  readonly rows?: number;
  /** Also emit a `screen` event after each chunk: what the terminal shows now. Default `false`. */
  readonly screen?: boolean;
}

/** A finished line: it can no longer change (it scrolled off the screen, or the run ended). */
export interface TerminalLineEvent extends ChunkEvent<string> {
  readonly kind: 'line';
  /** The line's text as a person reads it: no escapes, no `\r\n`, trailing blanks removed. */
  readonly content: string;
  readonly isFinal: false;
}

/** What a terminal shows at one moment. */
export interface TerminalScreen {
  /** Each row of the screen as plain text (trailing blanks removed). */
  readonly lines: readonly string[];
  /** The screen as escape sequences that redraw it, colours included (for xterm.js, `write()` it after a reset). */
  readonly styled: string;
  /** Where the cursor is, 0-based. */
  readonly cursor: { readonly row: number; readonly column: number };
  /** Whether a full-screen program (`less`, `vim`, `htop`) has the alternate screen up. */
  readonly alternate: boolean;
}

/** The screen after a chunk (with `screen: true`). */
export interface TerminalScreenEvent extends ChunkEvent<TerminalScreen> {
  readonly kind: 'screen';
  readonly isFinal: false;
}

/** An event of {@link renderTerminal}: finished lines, screens, and the source's final event. */
export type TerminalEvent<F extends ChunkEvent<unknown> = ChunkEvent<unknown>> =
  | TerminalLineEvent
  | TerminalScreenEvent
  | F;

/** Lines one write may push off the screen before they are read (the split of a large chunk). */
const LINES_PER_WRITE = 500;
/** The terminal keeps this many lines above the screen; they are read after each write. */
const SCROLLBACK = 2 * LINES_PER_WRITE;

/**
 * Renders what a program sent its terminal (`exec(…, { tty: true })`) as a terminal shows it, with
 * `@xterm/headless` (an optional peer: without it a `PeerMissingError`). A progress bar redrawn a
 * hundred times is one line; a full-screen program's alternate screen leaves none.
 *
 * - A `line` event per finished line: when it scrolls off, or at the source's final event
 *   (docs/terminal.md, "Lines a person would read").
 * - With `screen: true`, a `screen` event after each chunk (`@xterm/addon-serialize`, a peer too).
 * - The source's final event comes last; errors pass through after the lines before them.
 *
 * Sequence numbers are the operator's own. One terminal per subscription; demand passes through.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * import { renderTerminal } from 'sluice/operators';
 * exec('npm', ['install'], { tty: { columns: 100, rows: 30 } })
 *   .pipe(renderTerminal({ columns: 100, rows: 30 }))
 *   .subscribe((event) => event.kind === 'line' && console.log(event.content));
 * ```
 */
export function renderTerminal<F extends ChunkEvent<unknown>>(
  config: RenderTerminalConfig = {},
): OperatorFunction<ChunkEvent<unknown> | F, TerminalEvent<F>> {
  rejectUnknownOptions(config, ['columns', 'rows', 'screen']);
  const { columns, rows } = readTerminalSize(config);
  const withScreen = readBoolean(config, 'screen', false);
  return operate((source, subscriber) => {
    const view = new TerminalView(columns, rows, withScreen);
    let sequence = 0;
    const emitLines = (lines: readonly string[]) => {
      for (const content of lines)
        subscriber.next({ sequence: sequence++, kind: 'line', content, isFinal: false });
    };
    const afterWrite = () => {
      emitLines(view.harvest());
      if (withScreen)
        subscriber.next({ sequence: sequence++, kind: 'screen', content: view.screen(), isFinal: false });
    };
    /** Runs `end` once every write before it was parsed and its lines emitted. */
    const whenWritten = (end: () => void) =>
      view.write('', () => {
        emitLines(view.finish());
        end();
      });
    source.subscribe(
      createOperatorSubscriber<ChunkEvent<unknown> | F>(
        subscriber,
        (event) => {
          if (event.isFinal) whenWritten(() => subscriber.next({ ...event, sequence: sequence++ } as F));
          else if (typeof event.content === 'string' || event.content instanceof Uint8Array) {
            view.write(event.content, afterWrite);
          }
        },
        () => whenWritten(() => subscriber.complete()),
        (error) => whenWritten(() => subscriber.error(error)),
        () => view.dispose(),
      ),
    );
  });
}

/** One headless terminal, and how far its lines were read. */
class TerminalView {
  readonly #terminal: XtermTerminal;
  readonly #serialize: SerializeAddon | undefined;
  /** Lines read off the terminal, not emitted yet. */
  readonly #pending: string[] = [];
  #finished = false;

  constructor(columns: number, rows: number, styled: boolean) {
    const { Terminal } = requirePeer<XtermHeadless>('@xterm/headless', 'renderTerminal');
    this.#terminal = new Terminal({ cols: columns, rows, scrollback: SCROLLBACK, allowProposedApi: true });
    if (styled) {
      const { SerializeAddon } = requirePeer<typeof import('@xterm/addon-serialize')>(
        '@xterm/addon-serialize',
        'renderTerminal({ screen: true })',
      );
      this.#serialize = new SerializeAddon();
      this.#terminal.loadAddon(this.#serialize);
    }
  }

  /**
   * Writes `data` and calls `parsed` once the terminal applied it, in order. Each write is marked as
   * following user input, which xterm parses at once: renders keep in step with the source, in
   * virtual time too. A chunk with many line feeds goes in pieces the scrollback can hold.
   */
  write(data: string | Uint8Array, parsed: () => void): void {
    const pieces = typeof data === 'string' ? splitLines(data) : [data];
    pieces.forEach((piece, index) => {
      this.#terminal.input('', true);
      this.#terminal.write(piece, index === pieces.length - 1 ? parsed : () => this.#collect());
    });
  }

  /** The lines that scrolled off the screen since the last call (a line wrapped onto the screen waits). */
  harvest(): string[] {
    this.#collect();
    return this.#pending.splice(0);
  }

  /** Every line not read yet, the screen's included: the source ended. Blank rows at the bottom are not lines. */
  finish(): string[] {
    if (this.#finished) return [];
    this.#finished = true;
    this.#collect();
    const buffer = this.#terminal.buffer.normal;
    let end = buffer.length;
    while (end > 0 && buffer.getLine(end - 1)?.translateToString(true) === '') end -= 1;
    return [...this.#pending.splice(0), ...joinRows(buffer, 0, end)];
  }

  screen(): TerminalScreen {
    const buffer = this.#terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.#terminal.rows; row += 1) {
      lines.push(buffer.getLine(buffer.baseY + row)?.translateToString(true) ?? '');
    }
    return {
      lines,
      styled: this.#serialize?.serialize({ scrollback: 0 }) ?? '',
      cursor: { row: buffer.cursorY, column: buffer.cursorX },
      alternate: buffer.type === 'alternate',
    };
  }

  dispose(): void {
    this.#terminal.dispose();
  }

  /** Moves the lines above the screen (the whole of each wrapped line) to `#pending`, and drops them from the terminal. */
  #collect(): void {
    if (this.#finished) return;
    const buffer = this.#terminal.buffer.normal;
    let end = buffer.baseY;
    while (end > 0 && buffer.getLine(end)?.isWrapped) end -= 1;
    if (end === 0) return;
    this.#pending.push(...joinRows(buffer, 0, end));
    // Dropping the rows above the screen leaves the screen as it is; the rows of a line wrapped onto it stay.
    const options = this.#terminal.options;
    options.scrollback = buffer.baseY - end;
    options.scrollback = SCROLLBACK;
  }
}

type XtermBuffer = XtermTerminal['buffer']['normal'];

/** Rows `from` to `to` (excluded) as lines: a wrapped row continues the line above it. */
function joinRows(buffer: XtermBuffer, from: number, to: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (let row = from; row < to; row += 1) {
    const next = buffer.getLine(row + 1);
    const continued = row + 1 < to && next?.isWrapped === true;
    current += buffer.getLine(row)?.translateToString(!continued) ?? '';
    if (!continued) {
      lines.push(current);
      current = '';
    }
  }
  return lines;
}

/** `data` in pieces of at most {@link LINES_PER_WRITE} line feeds. */
function splitLines(data: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let feeds = 0;
  for (let at = data.indexOf('\n'); at !== -1; at = data.indexOf('\n', at + 1)) {
    feeds += 1;
    if (feeds === LINES_PER_WRITE) {
      pieces.push(data.slice(start, at + 1));
      start = at + 1;
      feeds = 0;
    }
  }
  if (start < data.length || pieces.length === 0) pieces.push(data.slice(start));
  return pieces;
}
