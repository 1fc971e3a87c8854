import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * House rules on how `src/` hangs together: `src/core` is the bottom layer (every other folder
 * may import it, it imports none of them); no module imports itself back through others (type
 * imports included: a type cycle is a layering knot all the same); RxJS's deprecated
 * `new Subscriber(…)` lives in one file; internals stay out of the public entry points.
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
const inside = (path: string, dir: string) => path.startsWith(`${dir}/`);
const name = (path: string) => relative(root, path);

/** The strongly connected components of the import graph with more than one file (Tarjan). */
function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(name(member));
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

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
  it('src/core imports nothing from the folders above it', () => {
    const core = join(src, 'core');
    const offenders = files
      .filter((file) => inside(file, core))
      .flatMap((file) =>
        (graph.get(file) ?? [])
          .filter((target) => !inside(target, core))
          .map((target) => `${name(file)} -> ${name(target)}`),
      );
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between files, type imports included', () => {
    expect(cycles()).toEqual([]);
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
