import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * House rule: every public export carries a JSDoc comment; the functions and classes an entry point
 * exports (what a user calls) also carry an `@example`. What a type already says gets no
 * `@example` anywhere in `src/` (see {@link restatesType}): a type alias, an interface, an enum,
 * their members, a class field, a constant. This test loads each public entry point (one
 * `ts.Program` for all of them), resolves every exported symbol through its re-exports to the
 * declaration(s) in `src/`, and lists the ones without; then it reads every file of `src/` for
 * examples that restate a type.
 */
const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

const ENTRY_POINTS = [
  'src/index.ts',
  'src/sources/index.ts',
  'src/operators/index.ts',
  'src/adapters/index.ts',
  'src/kernel/index.ts',
  'src/testing/index.ts',
  'src/browser/index.ts',
  'src/redis/index.ts',
  'src/mcp/index.ts',
  'src/web/index.ts',
] as const;

interface Offender {
  /** `file:line name`, the file relative to the root. */
  readonly where: string;
  /** The exported (public) name. */
  readonly name: string;
  readonly file: string;
}

interface Findings {
  readonly offenders: readonly Offender[];
  /** How many distinct public declarations were checked. */
  readonly checked: number;
}

function loadProgram(root: string, entries: readonly string[]): ts.Program {
  const configPath = resolve(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(
    config.config,
    ts.sys,
    root,
    { noEmit: true },
    configPath,
  );
  return ts.createProgram({
    rootNames: entries.map((entry) => resolve(root, entry)),
    options: { ...options, noEmit: true },
  });
}

/** Path of `fileName` relative to `root`, with `/` separators. */
function relativePath(root: string, fileName: string): string {
  return relative(root, fileName).split('\\').join('/');
}

/**
 * The declarations the public sees, in `src/`: the overload signatures of an overloaded function
 * (each one shows its own JSDoc in an editor), not its implementation.
 */
function visibleDeclarations(root: string, declarations: readonly ts.Declaration[]): ts.Declaration[] {
  const inSrc = declarations.filter((declaration) =>
    relativePath(root, declaration.getSourceFile().fileName).startsWith('src/'),
  );
  const isImplementation = (declaration: ts.Declaration) =>
    ts.isFunctionDeclaration(declaration) && declaration.body !== undefined;
  const overloaded = inSrc.some((declaration) => ts.isFunctionDeclaration(declaration) && !declaration.body);
  return overloaded ? inSrc.filter((declaration) => !isImplementation(declaration)) : inSrc;
}

/** A JSDoc comment on the declaration (or on its variable statement) with a non-empty `@example`. */
function hasExample(declaration: ts.Declaration): boolean {
  return ts
    .getJSDocTags(declaration)
    .some((tag) => tag.tagName.text === 'example' && Boolean(ts.getTextOfJSDocComment(tag.comment)?.trim()));
}

/** A JSDoc comment with some text on the declaration (or on its variable statement). */
function hasDoc(declaration: ts.Declaration): boolean {
  return ts.getJSDocCommentsAndTags(declaration).some((doc) => doc.getText().replace(/[/*\s]/g, '') !== '');
}

const isFunctionValue = (node: ts.Node | undefined): boolean =>
  node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));

/** What a user calls: a function (declared, or a function given to a variable) or a class. */
function isCallable(declaration: ts.Declaration): boolean {
  if (ts.isFunctionDeclaration(declaration) || ts.isClassDeclaration(declaration)) return true;
  return ts.isVariableDeclaration(declaration) && isFunctionValue(declaration.initializer);
}

/** A node whose JSDoc should not hold an `@example`: its type says what an example would. */
function restatesType(node: ts.Node): boolean {
  if (
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isEnumDeclaration(node) ||
    ts.isEnumMember(node) ||
    ts.isPropertySignature(node) ||
    ts.isMethodSignature(node) ||
    ts.isCallSignatureDeclaration(node) ||
    ts.isConstructSignatureDeclaration(node) ||
    ts.isIndexSignatureDeclaration(node)
  ) {
    return true;
  }
  if (ts.isPropertyDeclaration(node)) return !isFunctionValue(node.initializer);
  if (ts.isVariableStatement(node)) {
    return node.declarationList.declarations.every(
      (declaration) => !isFunctionValue(declaration.initializer),
    );
  }
  return false;
}

/** `file:line` of every `@example` in the `.ts` files under `root/src` on a node that restates a type. */
function restatingExamples(root: string): string[] {
  const found: string[] = [];
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return files(path);
      return path.endsWith('.ts') ? [path] : [];
    });
  for (const file of files(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('@example')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (restatesType(node)) {
        for (const doc of ts.getJSDocCommentsAndTags(node)) {
          if (!ts.isJSDoc(doc) || !doc.tags?.some((tag) => tag.tagName.text === 'example')) continue;
          const { line } = source.getLineAndCharacterOfPosition(doc.getStart(source));
          found.push(`${relativePath(root, file)}:${line + 1}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

function findOffenders(root: string, entries: readonly string[]): Findings {
  const program = loadProgram(root, entries);
  const checker = program.getTypeChecker();
  const seen = new Set<ts.Declaration>();
  const offenders: Offender[] = [];
  for (const entry of entries) {
    const sourceFile = program.getSourceFile(resolve(root, entry));
    if (!sourceFile) throw new Error(`Entry point ${entry} is not in the program`);
    const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
    if (!moduleSymbol) continue; // A file that exports nothing has no module symbol.
    for (const exportSymbol of checker.getExportsOfModule(moduleSymbol)) {
      const symbol =
        exportSymbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exportSymbol) : exportSymbol;
      const declarations = visibleDeclarations(root, symbol.declarations ?? []);
      if (declarations.length === 0) {
        throw new Error(`${entry} exports \`${exportSymbol.name}\`, which has no declaration in src/`);
      }
      for (const declaration of declarations) {
        if (seen.has(declaration)) continue;
        seen.add(declaration);
        if (isCallable(declaration) ? hasExample(declaration) : hasDoc(declaration)) continue;
        const source = declaration.getSourceFile();
        const file = relativePath(root, source.fileName);
        const { line } = source.getLineAndCharacterOfPosition(declaration.getStart(source));
        offenders.push({ where: `${file}:${line + 1} ${exportSymbol.name}`, name: exportSymbol.name, file });
      }
    }
  }
  offenders.sort((a, b) => a.where.localeCompare(b.where, 'en', { numeric: true }));
  return { offenders, checked: seen.size };
}

describe('the public API docs check', () => {
  // A tiny project on disk, to show the check can fail and finds what it should.
  let fixture: string;
  beforeAll(() => {
    fixture = mkdtempSync(join(tmpdir(), 'sluice-api-docs-'));
    const example = (code: string, indent = '') =>
      [' *', ' * @example', ' * ```ts', ` * ${code}`, ' * ```', ' */']
        .map((line) => indent + line)
        .join('\n');
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true } }),
      'src/index.ts': "export * from './a.js';\nexport { hidden as renamed } from './b.js';\n",
      'src/a.ts': [
        `/**\n * Documented.\n${example('documented();')}`,
        'export function documented(): void {}',
        '/** No example, as a type should be. */\nexport interface Bare {}',
        'export interface Undocumented {}',
        `/**\n * Restates its type.\n${example("const empty: Empty = '';")}\nexport type Empty = string;`,
        '/** An arrow function without example. */\nexport const arrow = (): number => 1;',
        `/**\n * A constant.\n${example('VALUE;')}\nexport const VALUE = 1;`,
        `/** Options. */\nexport interface Options {\n  /**\n   * A field.\n${example('{ size: 1 }', '  ')}\n  readonly size?: number;\n}`,
        `/**\n * First overload.\n${example('over(1);')}`,
        'export function over(value: number): number;',
        'export function over(value: string): string;',
        `/**\n * Implementation only.\n${example('over(1);')}`,
        'export function over(value: unknown): unknown {\n  return value;\n}',
      ].join('\n'),
      'src/b.ts': '/** A class without example. */\nexport class hidden {}\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), text);
    }
  });
  afterAll(() => {
    rmSync(fixture, { recursive: true, force: true });
  });

  it('lists each callable export without @example and each export without JSDoc, through re-exports and renames', () => {
    const { offenders, checked } = findOffenders(fixture, ['src/index.ts']);
    expect(offenders.map((offender) => offender.where)).toEqual([
      'src/a.ts:12 Undocumented',
      'src/a.ts:23 arrow',
      'src/a.ts:54 over',
      'src/b.ts:2 renamed',
    ]);
    // documented, Bare, Undocumented, Empty, arrow, VALUE, Options, two overloads, renamed
    expect(checked).toBe(10);
  });

  it('lists each @example on a type, a member or a constant', () => {
    expect(restatingExamples(fixture)).toEqual(['src/a.ts:13', 'src/a.ts:24', 'src/a.ts:35']);
  });
});

describe('public API documentation', () => {
  let found: Findings;
  beforeAll(() => {
    found = findOffenders(repoRoot, ENTRY_POINTS);
  });

  it('checks the exports of every entry point', () => {
    // A broken resolution (wrong root, empty program) would make the next test pass vacuously.
    expect(found.checked).toBeGreaterThan(200);
  });

  it('gives every public export a JSDoc comment, and every public function and class an @example', () => {
    const missing = found.offenders.map((o) => o.where);
    expect(
      missing.length,
      `Public exports without JSDoc, or callables without @example:\n${missing.join('\n')}\n`,
    ).toBe(0);
  });

  it('puts no @example where the type says it all (types, members, constants)', () => {
    const restating = restatingExamples(repoRoot);
    expect(restating.length, `@example on a type, a member or a constant:\n${restating.join('\n')}\n`).toBe(
      0,
    );
  });
});
