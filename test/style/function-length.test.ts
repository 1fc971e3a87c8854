import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * House rule: a function reads as named steps — past about 80 lines, split it (into pure helpers
 * or a small class, each step with its inputs in its signature). A function's length is what a
 * reader has to read: the lines from its first token to its last that hold code — blank lines and
 * lines of comments only do not count. A nested function counts in the function around it (it is
 * read there) and on its own. A class is not a function: each method is measured by itself.
 */
const MAX_LINES = 80;

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** How many lines of `node` hold a token (comments and blank lines are not tokens). */
function codeLines(node: ts.Node, source: ts.SourceFile): number {
  const lines = new Set<number>();
  const visit = (child: ts.Node): void => {
    if (child.kind >= ts.SyntaxKind.FirstJSDocNode && child.kind <= ts.SyntaxKind.LastJSDocNode) return;
    if (child.getChildCount(source) > 0) {
      for (const grandchild of child.getChildren(source)) visit(grandchild);
      return;
    }
    if (child.kind === ts.SyntaxKind.EndOfFileToken || child.getWidth(source) === 0) return;
    const first = source.getLineAndCharacterOfPosition(child.getStart(source)).line;
    const last = source.getLineAndCharacterOfPosition(child.getEnd()).line;
    for (let line = first; line <= last; line += 1) lines.add(line);
  };
  visit(node);
  return lines.size;
}

/** What a reader calls a function: its own name, the variable or property it is given to, or its line. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const { parent } = node;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined) {
    return parent.name.getText(source);
  }
  return `<function at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}>`;
}

/** `file name: lines` for every function of `text` longer than `max` lines of code. */
function longFunctions(file: string, text: string, max: number): { key: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { key: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const lines = codeLines(node, source);
      if (lines > max) found.push({ key: `${file} ${nameOf(node, source)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length in src/', () => {
  it(`has no function over ${MAX_LINES} lines of code`, () => {
    const offenders = sourceFiles(join(root, 'src'))
      .flatMap((file) => longFunctions(relative(root, file), readFileSync(file, 'utf8'), MAX_LINES))
      .map(({ key, lines }) => `${key}: ${lines} lines`);
    expect(offenders).toEqual([]);
  });

  it('counts lines of code, not comments or blank lines, and names what it finds', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const padded = `function padded() {\n${body(10)}\n  // a comment\n\n  /* another\n   one */\n}\n`;
    expect(longFunctions('a.ts', padded, 12)).toEqual([]);
    expect(longFunctions('a.ts', padded, 11)).toEqual([{ key: 'a.ts padded', lines: 12 }]);
    const nested = `export const outer = () => {\n${body(5)}\n  return function () {\n${body(5)}\n  };\n};\n`;
    expect(longFunctions('b.ts', nested, 6)).toEqual([
      { key: 'b.ts outer', lines: 14 },
      { key: 'b.ts <function at line 7>', lines: 7 },
    ]);
  });
});
