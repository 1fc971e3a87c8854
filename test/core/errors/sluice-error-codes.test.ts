import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The code union (`SluiceErrorCode`) lists every code the library gives an error: the codes are
 * read from `src` as written — the first argument of an error's constructor, of `super(…)` in an
 * error class, of the kernel's `failure(…)` and the HTTP source's `#fail(…)`, a `code:` field or
 * `code =` binding, the members of a narrower code type (`HttpErrorCode`) and of a function's
 * literal return type (`codeOf`).
 */
const src = fileURLToPath(new URL('../../../src', import.meta.url));
const unionFile = join(src, 'core/errors/sluice-error.ts');

const CODE = `'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})'`;
const GIVEN: readonly RegExp[] = [
  new RegExp(`\\b(?:new \\w*Error|super|failure|#fail)\\(\\s*${CODE}`, 'g'),
  new RegExp(`\\bcode(?::|\\s*=(?!=))[^;\\n]*?${CODE}`, 'g'),
];
/** A code type or a literal return type: `type HttpErrorCode = 'A' | 'B'`, `): 'A' | 'B' {`. */
const UNIONS = /(?:\w+Code =|\):)\s*((?:'[A-Z_]+'\s*\|\s*)+'[A-Z_]+')/g;

function files(path: string): string[] {
  if (statSync(path).isDirectory()) return readdirSync(path).flatMap((name) => files(join(path, name)));
  return path.endsWith('.ts') ? [path] : [];
}

/** The code without its comments (a JSDoc example may show any code). */
function code(file: string): string {
  return readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
}

/** Every code given to an error in `src`, with the first file that gives it. */
function givenCodes(): Map<string, string> {
  const given = new Map<string, string>();
  for (const file of files(src)) {
    const text = code(file);
    const found = GIVEN.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1] as string));
    for (const match of text.matchAll(UNIONS)) {
      found.push(...[...(match[1] as string).matchAll(/'([A-Z_]+)'/g)].map((member) => member[1] as string));
    }
    for (const name of found) if (!given.has(name)) given.set(name, relative(src, file));
  }
  return given;
}

function unionMembers(): Set<string> {
  const union = /export type SluiceErrorCode =([\s\S]*?);/.exec(code(unionFile))?.[1] ?? '';
  return new Set([...union.matchAll(/'([A-Z_]+)'/g)].map((match) => match[1] as string));
}

describe('SluiceErrorCode', () => {
  it('lists every code that src gives an error', () => {
    const members = unionMembers();
    const missing = [...givenCodes()]
      .filter(([name]) => !members.has(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });

  it('finds the codes as they are written, so that the check above can fail', () => {
    const given = givenCodes();
    for (const name of [
      'NO_DELIVERY',
      'UNKNOWN_TOOL',
      'STREAM_FAILED',
      'TIMEOUT',
      'LIMIT_EXCEEDED',
      'RUN_LIMIT',
    ]) {
      expect(given.has(name), name).toBe(true);
    }
    expect(given.size).toBeGreaterThanOrEqual(30);
    expect([...given.keys()].filter((name) => name.startsWith('SIG') || name === 'UNKNOWN')).toEqual([]);
  });
});
