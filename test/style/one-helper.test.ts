import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * House rule: one helper for each job, found by grep before writing another. This test catches
 * the three that kept coming back, by their shape rather than their name:
 *
 * - `chunk-builder`: a named function in a test that returns a chunk event literal (`sequence`,
 *   `kind`, `content`, `isFinal`) — use `chunk()` from `test/support/chunk.ts` (a wrapper that
 *   calls it, for a test's own content pattern, is fine).
 * - `test-scheduler`: a `TestScheduler` or `ChunkTestScheduler` built in a test with vitest's
 *   `(actual, expected) => expect(actual).toEqual(expected)` — use `newTestScheduler()` from
 *   `test/support/test-scheduler.ts`.
 * - `deferred`: a `new Promise` whose executor hands its `resolve` or `reject` to a variable or a
 *   field to be settled later, in `src` or in a test — use `deferred()` from
 *   `src/core/deferred.ts`.
 */
type Rule = 'chunk-builder' | 'test-scheduler' | 'deferred';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Where each rule is not checked: the one helper itself. */
const HOMES: Record<Rule, string> = {
  'chunk-builder': 'test/support/chunk.ts',
  'test-scheduler': 'test/support/test-scheduler.ts',
  deferred: 'src/core/deferred.ts',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const CHUNK_KEYS = ['sequence', 'kind', 'content', 'isFinal'];

/** The object literal an arrow or function returns, if it returns one directly. */
function returnedLiterals(body: ts.ConciseBody): ts.ObjectLiteralExpression[] {
  const unwrap = (node: ts.Expression): ts.Expression =>
    ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)
      ? unwrap(node.expression)
      : node;
  if (!ts.isBlock(body)) {
    const value = unwrap(body);
    return ts.isObjectLiteralExpression(value) ? [value] : [];
  }
  return body.statements.flatMap((statement) => {
    if (!ts.isReturnStatement(statement) || statement.expression === undefined) return [];
    const value = unwrap(statement.expression);
    return ts.isObjectLiteralExpression(value) ? [value] : [];
  });
}

function isChunkLiteral(literal: ts.ObjectLiteralExpression): boolean {
  const names = new Set(
    literal.properties.flatMap((property) =>
      property.name !== undefined && ts.isIdentifier(property.name) ? [property.name.text] : [],
    ),
  );
  return CHUNK_KEYS.every((key) => names.has(key));
}

/** A function given a name: `function f() {}`, `const f = () => …`, `const f = function () {}`. */
function namedFunction(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  if (ts.isFunctionDeclaration(node) && node.body !== undefined) return node;
  if (ts.isVariableDeclaration(node) && node.initializer !== undefined) {
    const value = node.initializer;
    if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return value;
  }
  return undefined;
}

/** `(a, b) => expect(a).toEqual(b)`. */
function isVitestEquality(node: ts.Expression | undefined): boolean {
  if (node === undefined || !ts.isArrowFunction(node) || ts.isBlock(node.body)) return false;
  const [actual, expected] = node.parameters.map((parameter) => parameter.name.getText());
  const call = node.body;
  if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression)) return false;
  const inner = call.expression.expression;
  return (
    call.expression.name.text === 'toEqual' &&
    call.arguments[0]?.getText() === expected &&
    ts.isCallExpression(inner) &&
    inner.expression.getText() === 'expect' &&
    inner.arguments[0]?.getText() === actual
  );
}

/** `x = resolve` or `this.#x = resolve` inside the executor of `new Promise((resolve) => …)`. */
function handsOutSettler(node: ts.NewExpression): boolean {
  const executor = node.arguments?.[0];
  if (node.expression.getText() !== 'Promise' || executor === undefined) return false;
  if (!ts.isArrowFunction(executor) && !ts.isFunctionExpression(executor)) return false;
  const settlers = new Set(executor.parameters.map((parameter) => parameter.name.getText()));
  let found = false;
  const visit = (child: ts.Node): void => {
    if (
      ts.isBinaryExpression(child) &&
      child.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      settlers.has(child.right.getText()) &&
      (ts.isIdentifier(child.left) ||
        (ts.isPropertyAccessExpression(child.left) &&
          child.left.expression.kind === ts.SyntaxKind.ThisKeyword))
    ) {
      found = true;
    }
    if (!found) ts.forEachChild(child, visit);
  };
  visit(executor.body);
  return found;
}

/** `file:line rule` for each place of `text` that writes its own copy of a shared helper. */
function ownHelpers(file: string, text: string): string[] {
  if (!/isFinal|TestScheduler|new Promise/.test(text)) return []; // none of the shapes: skip the parse
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const isTest = file.startsWith('test/');
  const found: string[] = [];
  const report = (node: ts.Node, rule: Rule) => {
    if (HOMES[rule] === file) return;
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${rule}`);
  };
  const visit = (node: ts.Node): void => {
    const fn = isTest ? namedFunction(node) : undefined;
    if (fn?.body !== undefined && returnedLiterals(fn.body).some(isChunkLiteral))
      report(node, 'chunk-builder');
    if (ts.isNewExpression(node)) {
      const name = node.expression.getText(source);
      if (isTest && /^(Chunk)?TestScheduler$/.test(name) && isVitestEquality(node.arguments?.[0])) {
        report(node, 'test-scheduler');
      }
      if (handsOutSettler(node)) report(node, 'deferred');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('one helper each', () => {
  it('no test writes its own chunk builder or test scheduler, and nothing its own deferred', () => {
    const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'test'))];
    const offenders = files.flatMap((path) => ownHelpers(relative(root, path), readFileSync(path, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('finds each shape, and leaves wrappers and other comparators alone', () => {
    const test = [
      "const line = (n: number) => ({ sequence: n, kind: 'stdout', content: 'x', isFinal: false });",
      'function exit(sequence: number) {',
      "  return { sequence, kind: 'exit', content: null, isFinal: true };",
      '}',
      "const wrapped = (n: number) => chunk(n, 'x');",
      'const s = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));',
      'const t = new TestScheduler((a, e) => expect(normalise(a)).toEqual(normalise(e)));',
      'let settle: () => void = () => {};',
      'const ended = new Promise<void>((resolve) => {',
      '  settle = resolve;',
      '});',
      'const timer = new Promise((resolve) => setTimeout(resolve, 5));',
    ].join('\n');
    expect(ownHelpers('test/a.test.ts', test)).toEqual([
      'test/a.test.ts:1 chunk-builder',
      'test/a.test.ts:2 chunk-builder',
      'test/a.test.ts:6 test-scheduler',
      'test/a.test.ts:9 deferred',
    ]);
    const src = 'class A {\n  wait() {\n    return new Promise<void>((ok) => (this.#wake = ok));\n  }\n}\n';
    expect(ownHelpers('src/a.ts', src)).toEqual(['src/a.ts:3 deferred']);
    expect(ownHelpers('src/a.ts', test)).toEqual(['src/a.ts:9 deferred']);
  });
});
