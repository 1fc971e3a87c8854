import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The entry-points table of docs/reference.md ("Entry points") is the list a user reads to know
 * where a name comes from. This test holds it to the code: each row's exports column must list
 * exactly the runtime exports of that entry's `src/<entry>/index.ts` (a cell may name another
 * entry, `sluice/sources`, to mean all of that entry's exports), and every subpath of
 * package.json's `exports` must have its row.
 */
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const MARKER = '<!-- entry-points:';

interface Row {
  readonly entry: string;
  /** Backticked names of the exports cell: an export, or `sluice/…` for all of that entry's. */
  readonly names: readonly string[];
}

function readTable(): Row[] {
  const text = readFileSync(resolve(root, 'docs/reference.md'), 'utf8');
  const start = text.indexOf(MARKER);
  if (start === -1) throw new Error(`docs/reference.md has no ${MARKER} marker above its table`);
  const lines = text.slice(start).split('\n').slice(1);
  const table = lines.slice(lines.findIndex((line) => line.startsWith('|')));
  const body = table.slice(
    2,
    table.findIndex((line) => !line.startsWith('|')),
  );
  return body.map((line) => {
    const [entryCell = '', , exportsCell = ''] = line
      .split(' | ')
      .map((cell) => cell.replace(/^\| |\s*\|$/g, ''));
    const names = [...exportsCell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
    return { entry: entryCell.replaceAll('`', '').trim(), names };
  });
}

function sourceOf(entry: string): string {
  const sub = entry === 'sluice' ? '' : `${entry.slice('sluice/'.length)}/`;
  return resolve(root, `src/${sub}index.ts`);
}

async function exportsOf(entry: string): Promise<string[]> {
  return Object.keys(await import(sourceOf(entry))).sort();
}

async function listed(row: Row, rows: readonly Row[]): Promise<string[]> {
  const names: string[] = [];
  for (const name of row.names) {
    if (!name.startsWith('sluice/')) names.push(name);
    else if (rows.some((other) => other.entry === name)) names.push(...(await exportsOf(name)));
    else throw new Error(`${row.entry}'s row names ${name}, which has no row of its own`);
  }
  return [...new Set(names)].sort();
}

describe('the entry-points table of docs/reference.md', () => {
  const rows = readTable();

  it('has one row per subpath of package.json', () => {
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(pkg.exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? 'sluice' : `sluice/${key.slice(2)}`));
    expect(rows.map((row) => row.entry).sort()).toEqual(entries.sort());
  });

  it.each(rows.map((row) => [row.entry, row] as const))('lists exactly what %s exports', async (_, row) => {
    expect(await listed(row, rows)).toEqual(await exportsOf(row.entry));
  });

  it('lists the drop-ins that carry demand under sluice/operators', () => {
    const operators = rows.find((row) => row.entry === 'sluice/operators');
    expect(operators?.names).toEqual(
      expect.arrayContaining(['concatMap', 'mergeMap', 'zip', 'share', 'joinRuns']),
    );
  });
});
