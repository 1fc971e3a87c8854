const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/** The index just after the JSON string that opens at `start`; the text's length if it never closes. */
function jsonStringEnd(text: string, start: number): number {
  let close = text.indexOf('"', start + 1);
  while (close !== -1) {
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return close + 1;
    close = text.indexOf('"', close + 1);
  }
  return text.length;
}

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether `text` nests arrays and objects more than `maxDepth` deep, from a bracket count in one
 * pass (strings skipped), so a hostile line of millions of `[` is refused without being parsed.
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

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

interface Container {
  readonly object: boolean;
  key: string | undefined;
  expectKey: boolean;
}

/**
 * The source text of the number at `path` in a JSON text that `JSON.parse` accepted (the last
 * duplicate key wins), to refuse what `JSON.parse` would silently round (`1.0`, `1e0`).
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
