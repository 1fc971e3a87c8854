const BACKSLASH = 0x5c;

/**
 * The index just after the JSON string that opens at `start` (a `"`), skipping escaped quotes;
 * the text's length if the string never closes. Used by the scanners that look at raw frame text
 * before it is parsed (`jsonNestsDeeper`, the raw number check). (Internal.)
 *
 * @example
 * ```ts
 * jsonStringEnd('{"a\\"b": 1}', 1); // 7: just after the key's closing quote
 * ```
 */
export function jsonStringEnd(text: string, start: number): number {
  let close = text.indexOf('"', start + 1);
  while (close !== -1) {
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return close + 1;
    close = text.indexOf('"', close + 1);
  }
  return text.length;
}
