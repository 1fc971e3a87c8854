import { AnsiUp } from 'ansi_up';
import { activeSgr, appendToLine, emptyLine, type LineText, withoutCutEscape } from './line-text.js';

type Stream = 'stdout' | 'stderr';

interface LineRecord {
  readonly kind: Stream | 'gap';
  line: LineText;
  /** SGR in force at the start of the line (handed on by the previous line of its stream). */
  readonly sgr: string;
  /** Characters not kept past {@link MAX_LINE_CHARS}. */
  cut: number;
  el: HTMLElement | undefined;
}

/** A longer line shows its first this many characters (the download has all of it). */
const MAX_LINE_CHARS = 10_000;

/**
 * The page's output pane: lines of stdout and stderr (stderr marked apart), ANSI colours and
 * styles rendered by `ansi_up`, `\r` rewriting a line in place (see `line-text.ts`), long lines
 * wrapped by CSS. It renders at most once per animation frame, and holds at most `maxLines`
 * lines in the DOM (older ones are removed and counted in {@link hidden}); lines that arrive
 * faster than frames are only kept as text until the next frame, and at most `2 × maxLines` of
 * them, so a hidden tab (no frames) stays bounded too.
 *
 * @example
 * ```ts
 * const view = new LogView(document.querySelector('#log')!, 5000);
 * view.push('stdout', '\x1b[31mred\x1b[0m and plain\n');
 * view.push('stderr', 'warning\n');
 * ```
 */
export class LogView {
  readonly #container: HTMLElement;
  readonly #maxLines: number;
  readonly #up = new AnsiUp();
  #pending: LineRecord[] = [];
  readonly #dirty = new Set<LineRecord>();
  readonly #open: Record<Stream, LineRecord | undefined> = { stdout: undefined, stderr: undefined };
  readonly #sgr: Record<Stream, string> = { stdout: '', stderr: '' };
  #shown = 0;
  #hidden = 0;
  #frame: number | undefined;
  /** Called after each render (with the number of lines not shown). */
  onRender: ((hidden: number) => void) | undefined;

  constructor(container: HTMLElement, maxLines: number) {
    this.#container = container;
    this.#maxLines = maxLines;
    this.#up.use_classes = true;
  }

  /** Lines no longer (or never) in the DOM. */
  get hidden(): number {
    return this.#hidden;
  }

  /** Line elements in the DOM. */
  get shown(): number {
    return this.#shown;
  }

  /** Adds output of one stream (any number of lines, the last one possibly unfinished). */
  push(kind: Stream, content: string): void {
    let start = 0;
    while (start < content.length) {
      const newline = content.indexOf('\n', start);
      const piece = newline === -1 ? content.slice(start) : content.slice(start, newline);
      let record = this.#open[kind];
      if (record === undefined) {
        record = { kind, line: emptyLine(), sgr: this.#sgr[kind], cut: 0, el: undefined };
        this.#add(record);
        this.#open[kind] = record;
      } else if (record.el !== undefined) this.#dirty.add(record);
      let line = appendToLine(record.line, piece);
      if (line.text.length > MAX_LINE_CHARS) {
        record.cut += line.text.length - MAX_LINE_CHARS;
        line = { ...line, text: line.text.slice(0, MAX_LINE_CHARS) };
      }
      record.line = line;
      if (newline === -1) break;
      const { carried, text } = record.line;
      if (record.sgr !== '' || carried !== '' || text.includes('\x1b')) {
        this.#sgr[kind] = activeSgr(record.sgr + carried + text);
      }
      this.#open[kind] = undefined;
      start = newline + 1;
    }
    this.#schedule();
  }

  /** Shows that `count` events were skipped (the server no longer held them). */
  gap(count: number): void {
    const text = `⋯ ${count.toLocaleString('en')} ${count === 1 ? 'event' : 'events'} skipped: the server no longer holds them (the full log has everything)`;
    this.#add({ kind: 'gap', line: { text, carried: '', returned: false }, sgr: '', cut: 0, el: undefined });
    this.#open.stdout = undefined;
    this.#open.stderr = undefined;
    this.#schedule();
  }

  /** Renders now what is waiting (the page also does so on the next frame by itself). */
  render(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
    const container = this.#container;
    const stick = container.scrollTop + container.clientHeight >= container.scrollHeight - 8;
    for (const record of this.#dirty) if (record.el?.isConnected) this.#paint(record, record.el);
    this.#dirty.clear();
    let records = this.#pending;
    this.#pending = [];
    if (records.length > this.#maxLines) {
      this.#hidden += records.length - this.#maxLines;
      records = records.slice(records.length - this.#maxLines);
    }
    if (records.length > 0) {
      const fragment = document.createDocumentFragment();
      for (const record of records) {
        const el = document.createElement('div');
        record.el = el;
        this.#paint(record, el);
        fragment.append(el);
      }
      container.append(fragment);
      this.#shown += records.length;
    }
    const excess = this.#shown - this.#maxLines;
    if (excess > 0) {
      const range = document.createRange();
      range.setStartBefore(container.firstElementChild as Element);
      range.setEndAfter(container.children[excess - 1] as Element);
      range.deleteContents();
      this.#shown -= excess;
      this.#hidden += excess;
    }
    if (stick) container.scrollTop = container.scrollHeight;
    this.onRender?.(this.#hidden);
  }

  #add(record: LineRecord): void {
    this.#pending.push(record);
    if (this.#pending.length > 2 * this.#maxLines) {
      const drop = this.#pending.length - this.#maxLines;
      this.#hidden += drop;
      this.#pending = this.#pending.slice(drop);
    }
  }

  #schedule(): void {
    this.#frame ??= requestAnimationFrame(() => {
      this.#frame = undefined;
      this.render();
    });
  }

  #paint(record: LineRecord, el: HTMLElement): void {
    el.className = record.kind === 'stdout' ? 'line' : record.kind === 'stderr' ? 'line err' : 'line gap';
    const prefix = record.sgr + record.line.carried;
    const text = record.line.text;
    if (prefix === '' && !text.includes('\x1b')) el.textContent = text;
    else {
      this.#up.ansi_to_html('\x1b[0m'); // a line starts from its own prefix, not the last painted line
      el.innerHTML = this.#up.ansi_to_html(prefix + withoutCutEscape(text));
    }
    if (record.cut > 0) {
      const more = document.createElement('span');
      more.className = 'cut';
      more.textContent = ` … ${record.cut.toLocaleString('en')} more characters (in the full log)`;
      el.append(more);
    }
  }
}
