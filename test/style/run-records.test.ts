import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * House rule: only `src/runs` knows a run's records (docs/scaling.md, "The interface"). Everything else follows a run
 * through `followRun` (or `fromRunStore`, `watchRunEnd`) and never switches on a record's `type`
 * (`events`, `gap`, `failure`) nor reads `RunStore.read` itself; and writes a run only through
 * `RunOutlet` (or `toRunStore`), never opening a store's writer. The stores that make the records
 * (the Redis store's reads) are the one other place that holds them.
 */
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The Redis store's own files: they decode its entries into records and define its `openWriter`. */
const STORE_FILES = new Set(['src/redis/redis-run-store.ts', 'src/redis/read-run.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `file:line: text` of each line of the files outside `src/runs` (and `skip`) that matches `pattern`. */
function linesMatching(pattern: RegExp, skip: ReadonlySet<string>, inRuns = false): string[] {
  const found: string[] = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path);
    if (file.startsWith('src/runs/') !== inRuns || skip.has(file)) continue;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe("a run's records are known only to src/runs", () => {
  it("no switch on a record's type outside src/runs (follow the run with followRun)", () => {
    expect(linesMatching(/\.type\s*[!=]==?\s*'(events|gap|failure)'/, STORE_FILES)).toEqual([]);
  });

  it('no read of RunStore.read outside src/runs', () => {
    expect(linesMatching(/(store|#store)\??\.read\(/, STORE_FILES)).toEqual([]);
  });

  it('no store writer opened outside src/runs (write a run through RunOutlet or toRunStore)', () => {
    expect(linesMatching(/\.openWriter\(/, STORE_FILES)).toEqual([]);
  });

  it('inside src/runs too, only RunOutlet opens a writer', () => {
    expect(linesMatching(/\.openWriter\(/, new Set(['src/runs/run-outlet.ts']), true)).toEqual([]);
  });
});
