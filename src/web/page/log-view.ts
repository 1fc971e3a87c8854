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
  /** Whether its `\n` has arrived. */
  closed: boolean;
  /** The element of a line rendered while still open (it is updated in place). */
  el: HTMLElement | undefined;
}

/** One element of the pane: a run of lines of one kind, in order. */
interface Part {
  readonly el: HTMLElement;
  lines: number;
  /** Plain text (its lines can be cut from the top), or markup. */
  readonly text: boolean;
}

/** A longer line shows its first this many characters (the download has all of it). */
const MAX_LINE_CHARS = 10_000;
/** Lines per element: plain text (trimmed line by line), markup (removed whole). */
const MAX_TEXT_PART = 500;
const MAX_HTML_PART = 50;

/**
 * The page's output pane, bounded and paced as docs/web.md, "The page" says: at most one render a
 * frame, consecutive finished lines of one stream in one element, `maxLines` lines in the DOM (a
 * run of coloured lines goes as a whole, so up to 49 fewer may show) and at most `2 × maxLines`
 * waiting as text for a frame (a hidden tab stays bounded too).
 */
export class LogView {
  readonly #container: HTMLElement;
  readonly #maxLines: number;
  readonly #up = new AnsiUp();
  #pending: LineRecord[] = [];
  readonly #dirty = new Set<LineRecord>();
  readonly #open: Record<Stream, LineRecord | undefined> = { stdout: undefined, stderr: undefined };
  readonly #sgr: Record<Stream, string> = { stdout: '', stderr: '' };
  #parts: Part[] = [];
  #first = 0;
  #shown = 0;
  #hidden = 0;
  #frame: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #nextRenderAt = 0;
  /** Whether the pane keeps its newest line in view: until the viewer scrolls up, and again once they scroll to the bottom. */
  #following = true;
  /** Where the view itself last scrolled the pane to (a scroll event there is not the viewer's). */
  #pinnedTop = 0;
  /** Called after each render (with the number of lines not shown). */
  onRender: ((hidden: number) => void) | undefined;

  constructor(container: HTMLElement, maxLines: number) {
    this.#container = container;
    this.#maxLines = maxLines;
    this.#up.use_classes = true;
    container.addEventListener('scroll', () => this.#onScroll(), { passive: true });
    // A pane that followed the run keeps its newest line in view when it changes size (the
    // footer appears): observers run before the frame is drawn.
    new ResizeObserver(() => {
      if (this.#following) this.#scrollTo(container.scrollHeight);
    }).observe(container);
  }

  /** Lines no longer (or never) in the DOM. */
  get hidden(): number {
    return this.#hidden;
  }

  /** Lines in the DOM. */
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
        record = { kind, line: emptyLine(), sgr: this.#sgr[kind], cut: 0, closed: false, el: undefined };
        this.#add(record);
        this.#open[kind] = record;
      } else if (record.el !== undefined) this.#dirty.add(record);
      let line = piece === '' ? record.line : appendToLine(record.line, piece);
      if (line.text.length > MAX_LINE_CHARS) {
        record.cut += line.text.length - MAX_LINE_CHARS;
        line = { ...line, text: line.text.slice(0, MAX_LINE_CHARS) };
      }
      record.line = line;
      if (newline === -1) break;
      record.closed = true;
      const { carried, text } = line;
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
    this.#add({
      kind: 'gap',
      line: { text, carried: '', returned: false },
      sgr: '',
      cut: 0,
      closed: true,
      el: undefined,
    });
    this.#open.stdout = undefined;
    this.#open.stderr = undefined;
    this.#schedule();
  }

  /** Renders now what is waiting (the page also does so on the next frame by itself). */
  render(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#frame = undefined;
    this.#timer = undefined;
    const started = performance.now();
    const container = this.#container;
    for (const record of this.#dirty) if (record.el?.isConnected) this.#paintOpen(record, record.el);
    this.#dirty.clear();
    let records = this.#pending;
    this.#pending = [];
    if (records.length > this.#maxLines) {
      this.#hidden += records.length - this.#maxLines;
      records = records.slice(records.length - this.#maxLines);
    }
    if (records.length > 0) {
      const fragment = document.createDocumentFragment();
      let index = 0;
      while (index < records.length) index = this.#renderPart(records, index, fragment);
      container.append(fragment);
    }
    this.#trim();
    const height = container.scrollHeight; // lays the new lines out now, inside the time measured
    if (this.#following) this.#scrollTo(height);
    this.onRender?.(this.#hidden);
    // Rendering takes at most a third of the main thread (docs/web.md, "The page").
    const ended = performance.now();
    this.#nextRenderAt = ended + Math.min(500, 2 * (ended - started));
  }

  #scrollTo(top: number): void {
    this.#container.scrollTop = top;
    this.#pinnedTop = this.#container.scrollTop;
  }

  /** The viewer scrolled: the pane follows the run while they are at its bottom (within 8 px). */
  #onScroll(): void {
    const container = this.#container;
    if (container.scrollTop === this.#pinnedTop) return; // the view's own scroll
    this.#following = container.scrollTop + container.clientHeight >= container.scrollHeight - 8;
  }

  /** Renders the run of records from `index` as one element; returns where the next run starts. */
  #renderPart(records: LineRecord[], index: number, fragment: DocumentFragment): number {
    const first = records[index] as LineRecord;
    const el = document.createElement('div');
    el.className = first.kind === 'stdout' ? 'out' : first.kind === 'stderr' ? 'err' : 'gap';
    if (!first.closed || first.kind === 'gap') {
      if (first.kind === 'gap') el.textContent = first.line.text;
      else {
        first.el = el;
        this.#paintOpen(first, el);
      }
      this.#place(fragment, { el, lines: 1, text: false });
      return index + 1;
    }
    let end = index;
    let html = false;
    while (end < records.length && end - index < MAX_TEXT_PART) {
      const record = records[end] as LineRecord;
      if (record.kind !== first.kind || !record.closed) break;
      const marked = needsMarkup(record);
      if (marked && !html && end - index >= MAX_HTML_PART) break;
      html ||= marked;
      end += 1;
      if (html && end - index >= MAX_HTML_PART) break;
    }
    if (html) {
      let markup = '';
      for (let at = index; at < end; at += 1)
        markup += `${at > index ? '\n' : ''}${this.#html(records[at] as LineRecord)}`;
      el.innerHTML = markup;
    } else {
      let text = '';
      for (let at = index; at < end; at += 1)
        text += `${at > index ? '\n' : ''}${(records[at] as LineRecord).line.text}`;
      el.textContent = text;
    }
    this.#place(fragment, { el, lines: end - index, text: !html });
    return end;
  }

  #place(fragment: DocumentFragment, part: Part): void {
    fragment.append(part.el);
    this.#parts.push(part);
    this.#shown += part.lines;
  }

  /** Removes the oldest lines past `maxLines`: whole elements, or the top lines of a text one. */
  #trim(): void {
    while (this.#shown > this.#maxLines) {
      const part = this.#parts[this.#first] as Part;
      const excess = this.#shown - this.#maxLines;
      if (part.text && part.lines > excess) {
        const node = part.el.firstChild as Text;
        let cut = -1;
        for (let count = 0; count < excess; count += 1) cut = node.data.indexOf('\n', cut + 1);
        node.deleteData(0, cut + 1);
        part.lines -= excess;
        this.#shown -= excess;
        this.#hidden += excess;
        break;
      }
      part.el.remove(); // (a markup part goes whole, so a few more lines than needed may go)
      this.#first += 1;
      this.#shown -= part.lines;
      this.#hidden += part.lines;
    }
    if (this.#first > 1024 && this.#first * 2 > this.#parts.length) {
      this.#parts = this.#parts.slice(this.#first);
      this.#first = 0;
    }
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
    if (this.#frame !== undefined || this.#timer !== undefined) return;
    const frame = () => {
      this.#timer = undefined;
      this.#frame = requestAnimationFrame(() => {
        this.#frame = undefined;
        this.render();
      });
    };
    const wait = this.#nextRenderAt - performance.now();
    if (wait > 0) this.#timer = setTimeout(frame, wait);
    else frame();
  }

  #paintOpen(record: LineRecord, el: HTMLElement): void {
    if (needsMarkup(record)) el.innerHTML = this.#html(record);
    else el.textContent = record.line.text;
  }

  /** A line as markup: its colours by `ansi_up` (which escapes the text), and a cut marker. */
  #html(record: LineRecord): string {
    this.#up.ansi_to_html('\x1b[0m'); // a line starts from its own prefix, not the last one painted
    let html = this.#up.ansi_to_html(record.sgr + record.line.carried + withoutCutEscape(record.line.text));
    if (record.cut > 0) {
      html += `<span class="cut"> … ${record.cut.toLocaleString('en')} more characters (in the full log)</span>`;
    }
    return html;
  }
}

function needsMarkup(record: LineRecord): boolean {
  return (
    record.sgr !== '' || record.line.carried !== '' || record.cut > 0 || record.line.text.includes('\x1b')
  );
}
