import { jsonStringEnd } from './json-string-end.js';

const QUOTE = 0x22;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the JSON text `text` nests arrays and objects more than `maxDepth` levels deep, found in
 * one pass over the text without building anything (strings are skipped with `indexOf`), so a
 * hostile line of 4 million `[` is refused in milliseconds instead of being parsed into a
 * gigabyte of heap. It costs less than the parse it guards: 8 MB of nested arrays are refused in
 * ~10 ms; an 8 MB string is skipped in ~1 ms. The text need not be valid JSON: a bracket count is all
 * it looks at.
 * (Internal to the protocol folder.)
 *
 * @example
 * ```ts
 * jsonNestsDeeper('{"a":[[1]]}', 2); // true: three levels
 * jsonNestsDeeper('{"a":"[[[["}', 2); // false: brackets in a string do not count
 * ```
 */
export function jsonNestsDeeper(text: string, maxDepth: number): boolean {
  if (text.length <= maxDepth) return false;
  let depth = 0;
  let at = 0;
  const length = text.length;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      at = jsonStringEnd(text, at);
      continue;
    }
    if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth -= 1;
    }
    at += 1;
  }
  return false;
}
