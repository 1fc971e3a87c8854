import { jsonStringEnd } from './json-string-end.js';

const QUOTE = 0x22;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

interface Container {
  readonly object: boolean;
  key: string | undefined;
  expectKey: boolean;
}

/**
 * Finds the source text of the number at `path` (object keys from the root) in a JSON text
 * that `JSON.parse` already accepted, as `JSON.parse` would pick it (the last duplicate key
 * wins). Returns `undefined` when no number sits there. Used to reject what `JSON.parse` would
 * silently round, such as a sequence written `5.0000000000000001` or `1e0`. Strings are skipped
 * with `indexOf`, so the cost is small next to the parse itself. (Internal to the protocol folder.)
 *
 * @example
 * ```ts
 * rawNumberToken('{"outcome":{"sequence":1.0}}', ['outcome', 'sequence']); // '1.0'
 * ```
 */
export function rawNumberToken(text: string, path: readonly string[]): string | undefined {
  const stack: Container[] = [];
  let found: string | undefined;
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    const top = stack[stack.length - 1];
    if (code === QUOTE) {
      const end = jsonStringEnd(text, at);
      if (top?.object && top.expectKey) {
        const raw = text.slice(at + 1, end - 1);
        top.key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      }
      at = end;
      continue;
    }
    const char = text[at];
    if (char === '{' || char === '[')
      stack.push({ object: char === '{', key: undefined, expectKey: char === '{' });
    else if (char === '}' || char === ']') stack.pop();
    else if (char === ',' && top?.object) top.expectKey = true;
    else if (char === ':' && top !== undefined) top.expectKey = false;
    else if (char === '-' || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = at;
      const token = NUMBER.exec(text)?.[0] ?? '-';
      if (stack.length === path.length && matches(stack, path)) found = token;
      at += token.length;
      continue;
    }
    at += 1;
  }
  return found;
}

function matches(stack: readonly Container[], path: readonly string[]): boolean {
  for (let i = 0; i < path.length; i++) {
    const container = stack[i]!;
    if (!container.object || container.key !== path[i]) return false;
  }
  return true;
}
