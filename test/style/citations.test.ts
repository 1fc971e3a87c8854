import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * House rule: the repository explains itself. Code, tests, docs and data cite documents a reader
 * has — docs/protocol.md, docs/backpressure.md, the README — never the design notes sluice grew
 * from ("the seed", "seed 002", an acceptance criterion's number) nor an issue number of the
 * tracker. A random-number seed (fast-check's `seed` option) is not a citation.
 */
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const self = fileURLToPath(import.meta.url);

const PLACES = ['src', 'docs', 'marbles', 'bench', 'test', 'examples', 'README.md', '.ci', 'package.json'];
const TEXT = /\.(ts|mts|mjs|cjs|js|json|md|py|sh|html|css)$|^run$/;
const CITATIONS: readonly RegExp[] = [
  /\bseeds?\b/i,
  /\bissue #?\d+/i,
  /\bcriteri(on|a) \d+/i,
  /\bRFC \d{4}\b/,
  /__pi_|\bpi\.cancelStream\b/,
];
/** Random-number seeds: fast-check's option, and the variables that carry one. */
const RNG_SEED = /\brngSeed\b|\bseed: Number\(/;

function files(path: string): string[] {
  if (statSync(path).isDirectory()) {
    return readdirSync(path).flatMap((name) => (name === 'node_modules' ? [] : files(join(path, name))));
  }
  return TEXT.test(path.split('/').pop() ?? '') ? [path] : [];
}

/**
 * What a comment in `src` may not hold: a dated run, or a figure measured on some machine (a rate,
 * a factor, a share of the time). Those live in docs/benchmarks.md; code cites docs/performance.md
 * by heading instead.
 */
const MEASURED: readonly RegExp[] = [
  /\b20\d\d-\d\d-\d\d\b/,
  /\bsession (of 20\d\d|\d+\b)/i,
  /\d\s*[kM]\s*(lines|chunks|frames|events)\/s\b/,
  /\d\s*×\s*(faster|slower|cheaper|costlier|more|less)\b/,
  /\d\s*%\s*(faster|slower|cheaper|costlier|more|less|of the)\b/,
  /\bmeasured\b[^`]*\d/,
];

/** The comment on a line of TypeScript: a JSDoc or `//` line, or what follows a ` // `. */
function commentOf(line: string): string | undefined {
  const trimmed = line.trimStart();
  if (/^(\*|\/\*|\/\/)/.test(trimmed)) return trimmed;
  const at = line.indexOf(' // ');
  return at === -1 ? undefined : line.slice(at);
}

describe('citations', () => {
  it('leave measured figures and dated runs out of the comments in src', () => {
    const offenders: string[] = [];
    for (const file of files(join(root, 'src')).filter((path) => path.endsWith('.ts'))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const comment = commentOf(line);
          if (comment !== undefined && MEASURED.some((pattern) => pattern.test(comment))) {
            offenders.push(`${relative(root, file)}:${index + 1}: ${comment.slice(0, 120)}`);
          }
        });
    }
    expect(offenders).toEqual([]);
  });

  it('cite files of the repository, never an outside design note or an issue number', () => {
    const offenders: string[] = [];
    for (const file of PLACES.flatMap((place) => files(join(root, place)))) {
      if (file === self) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (RNG_SEED.test(line)) return;
          if (CITATIONS.some((pattern) => pattern.test(line))) {
            offenders.push(`${relative(root, file)}:${index + 1}: ${line.trim().slice(0, 120)}`);
          }
        });
    }
    expect(offenders).toEqual([]);
  });
});
