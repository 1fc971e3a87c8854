/**
 * Joins the pieces of a long stdout line back together: the `exec` source cuts a line longer
 * than its `maxLineBytes` into pieces marked `partial`. A piece without its `\n` waits for the
 * next one; the whole line is handed to `onLine` with `overlong: true` when any piece was
 * partial (the supervisor reports such a line as malformed). (Internal to the supervisor.)
 *
 * @example
 * ```ts
 * const joiner = new LineJoiner((text, overlong) => console.log(overlong, text));
 * joiner.push('{"op":', true);
 * joiner.push('"result"}\n', false); // logs: true {"op":"result"}\n
 * ```
 */
export class LineJoiner {
  readonly #onLine: (text: string, overlong: boolean) => void;
  #pending: { text: string; overlong: boolean } | undefined;

  constructor(onLine: (text: string, overlong: boolean) => void) {
    this.#onLine = onLine;
  }

  /** One piece of a line; `partial` when the source cut the line there. */
  push(text: string, partial: boolean): void {
    const joined = (this.#pending?.text ?? '') + text;
    const overlong = this.#pending?.overlong === true || partial;
    if (partial && !text.endsWith('\n')) {
      this.#pending = { text: joined, overlong };
      return;
    }
    this.#pending = undefined;
    this.#onLine(joined, overlong);
  }

  /** Hands out what is left of an unfinished line (the runner exited in the middle of it). */
  flush(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending !== undefined) this.#onLine(pending.text, pending.overlong);
  }
}
