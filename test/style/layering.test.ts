import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * House rules on how `src/` hangs together. Its folders stand on floors, and a folder imports only
 * from its own floor or the floors below it:
 *
 *     core / trace → sources / operators → adapters / runs → kernel / browser / web / redis / mcp / testing → cli
 *
 * (`src/index.ts`, the root barrel, stands with the third floor's entries.) Within a floor one
 * folder may build on another (`mcp` on `kernel`, `web` on `browser`, `adapters` on `runs`), but
 * never both ways round: the folder graph has no cycle, and neither has the file graph (type imports
 * included: a type cycle is a layering knot all the same). A new folder must be given its floor
 * here. RxJS's deprecated `new Subscriber(…)` lives in one file; internals stay out of the public
 * entry points.
 */
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The files of `src/` that `file` imports or re-exports (`import type` and `import()` included). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '');
      return existsSync(`${target}.ts`) ? `${target}.ts` : join(target, 'index.ts');
    });
}

const files = sourceFiles(src);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const name = (path: string) => relative(root, path);

/** The strongly connected components of `edges` with more than one node, each sorted (Tarjan). */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The floors of `src/`, lowest first: a folder imports from its own floor or a lower one. */
const FLOORS: readonly (readonly string[])[] = [
  ['core', 'trace'],
  ['sources', 'operators'],
  ['adapters', 'runs'],
  ['kernel', 'browser', 'web', 'redis', 'mcp', 'testing', 'index.ts'],
  ['cli'],
];

/** The top folder of `src/` a file is in (`index.ts` for the root barrel). */
const folderOf = (file: string) => relative(src, file).split('/')[0] as string;

/** For each folder, the other folders its files import from (`file -> file` pairs as evidence). */
function folderEdges(fileEdges: ReadonlyMap<string, readonly string[]>): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, targets] of fileEdges) {
    const from = folderOf(file);
    const out = edges.get(from) ?? new Map<string, string>();
    edges.set(from, out);
    for (const target of targets) {
      if (!fileEdges.has(target)) continue; // outside src/ (package.json)
      const to = folderOf(target);
      if (to !== from && !out.has(to)) out.set(to, `${name(file)} -> ${name(target)}`);
    }
  }
  return edges;
}

/** Imports that climb: `from -> to` where `to` stands on a higher floor (or on none). */
function climbing(
  edges: ReadonlyMap<string, ReadonlyMap<string, string>>,
  floors: readonly (readonly string[])[],
): string[] {
  const floor = (folder: string) => floors.findIndex((folders) => folders.includes(folder));
  const offenders: string[] = [];
  for (const [from, targets] of edges) {
    if (floor(from) === -1) offenders.push(`src/${from} stands on no floor: give it one in FLOORS`);
    for (const [to, evidence] of targets) {
      if (floor(from) === -1 || floor(to) === -1 || floor(to) > floor(from)) {
        offenders.push(`${from} -> ${to} (${evidence})`);
      }
    }
  }
  return offenders.sort();
}

const folderGraph = folderEdges(graph);
const folderNames = (edges: ReadonlyMap<string, ReadonlyMap<string, string>>) =>
  new Map([...edges].map(([from, targets]) => [from, [...targets.keys()]]));

/** The source without its comments (JSDoc examples may show code the file does not run). */
function code(file: string): string {
  const text = readFileSync(file, 'utf8');
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  let out = '';
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    out += `${scanner.getTokenText()} `;
  }
  return out;
}

describe('layering of src/', () => {
  it('imports only from its own floor or below (core → … → cli)', () => {
    expect(climbing(folderGraph, FLOORS)).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    expect(cycles(folderNames(folderGraph))).toEqual([]);
  });

  it('has no import cycle between files, type imports included', () => {
    expect(cycles(graph).map((component) => component.map(name))).toEqual([]);
  });

  it('finds a climbing import and a folder cycle when there is one', () => {
    const edges = new Map([
      ['runs', new Map([['adapters', 'src/runs/a.ts -> src/adapters/b.ts']])],
      ['adapters', new Map([['runs', 'src/adapters/b.ts -> src/runs/a.ts']])],
      ['core', new Map([['cli', 'src/core/c.ts -> src/cli/d.ts']])],
      ['extra', new Map()],
    ]);
    expect(climbing(edges, FLOORS)).toEqual([
      'core -> cli (src/core/c.ts -> src/cli/d.ts)',
      'src/extra stands on no floor: give it one in FLOORS',
    ]);
    expect(cycles(folderNames(edges))).toEqual([['adapters', 'runs']]);
  });

  it('extends or constructs RxJS Subscriber in src/core/subscriber-chain.ts only', () => {
    const allowed = join(src, 'core', 'subscriber-chain.ts');
    const offenders = files
      .filter((file) => file !== allowed && /\b(new|extends) Subscriber\b/.test(code(file)))
      .map(name);
    expect(offenders).toEqual([]);
  });

  it('keeps internals out of the root entry and sluice/kernel', async () => {
    const rootEntry: Record<string, unknown> = await import('../../src/index.js');
    const kernel: Record<string, unknown> = await import('../../src/kernel/index.js');
    const internal = ['operate', 'createOperatorSubscriber', 'OperatorSubscriber'];
    const kernelInternal = ['guardChunkCallback', 'startRunner', 'inProcessRunnerLink', 'processRunnerLink'];
    expect(internal.filter((key) => key in rootEntry)).toEqual([]);
    expect([...internal, ...kernelInternal].filter((key) => key in kernel)).toEqual([]);
  });
});
