/** One dispatched Server-Sent Events message. */
export interface SseMessage {
  /** The `event:` type (`'message'` when the frame had none). */
  readonly event: string;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
  /** The last `id:` seen so far in the stream (what a browser would send as `Last-Event-ID`). */
  readonly lastEventId: string;
}

/**
 * An incremental `text/event-stream` parser, following the WHATWG HTML interpretation rules:
 * lines end with CRLF, LF or CR (also split across chunks); `:` lines are comments (heartbeats);
 * `data:` lines accumulate; a blank line dispatches a message if it has data; `id:` updates the
 * last event id (unless it holds a NUL); `retry:` sets {@link retry}; a leading BOM is skipped.
 * No Node imports.
 *
 * @example
 * ```ts
 * import { SseParser } from 'sluice/browser';
 * const parser = new SseParser();
 * parser.push('id: 1\nevent: stdout\ndata: a\nda');
 * parser.push('ta: b\n\n'); // [{ event: 'stdout', data: 'a\nb', lastEventId: '1' }]
 * ```
 */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #event = '';
  #lastEventId = '';
  #started = false;
  #retry: number | undefined;

  /** The last `retry:` value, in ms. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /** The last event id seen. */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** Feeds decoded text; returns the messages it completed. */
  push(text: string): SseMessage[] {
    let input = this.#buffer + text;
    if (!this.#started && input.length > 0) {
      this.#started = true;
      if (input.charCodeAt(0) === 0xfeff) input = input.slice(1);
    }
    const messages: SseMessage[] = [];
    let start = 0;
    // Line ends found with indexOf (a CR is looked for again only once passed: most streams have none).
    let cr = input.indexOf('\r');
    for (;;) {
      if (cr !== -1 && cr < start) cr = input.indexOf('\r', start);
      const lf = input.indexOf('\n', start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      if (end === cr && end === input.length - 1) break; // a CR at the end may be half a CRLF
      this.#line(input.slice(start, end), messages);
      start = end === cr && input.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
    }
    this.#buffer = input.slice(start);
    return messages;
  }

  #line(line: string, messages: SseMessage[]): void {
    if (line === '') {
      if (this.#data.length > 0) {
        messages.push({
          event: this.#event || 'message',
          data: this.#data.join('\n'),
          lastEventId: this.#lastEventId,
        });
      }
      this.#data = [];
      this.#event = '';
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\0')) this.#lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.#retry = Number(value);
  }
}
