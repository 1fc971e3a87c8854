import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * House rule: every public export carries a JSDoc comment with an `@example`. This test loads
 * each public entry point (one `ts.Program` for all of them), resolves every exported symbol
 * through its re-exports to the declaration(s) in `src/`, and lists the ones without.
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
        if (hasExample(declaration)) continue;
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
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true } }),
      'src/index.ts': "export * from './a.js';\nexport { hidden as renamed } from './b.js';\n",
      'src/a.ts': [
        '/**\n * Documented.\n *\n * @example\n * ```ts\n * documented();\n * ```\n */',
        'export function documented(): void {}',
        '/** No example. */\nexport interface Bare {}',
        '/**\n * Empty example.\n *\n * @example\n */\nexport type Empty = string;',
        '/**\n * A constant.\n *\n * @example\n * ```ts\n * VALUE;\n * ```\n */\nexport const VALUE = 1;',
        '/**\n * First overload.\n *\n * @example\n * ```ts\n * over(1);\n * ```\n */',
        'export function over(value: number): number;',
        'export function over(value: string): string;',
        '/**\n * Implementation only.\n *\n * @example\n * ```ts\n * over(1);\n * ```\n */',
        'export function over(value: unknown): unknown {\n  return value;\n}',
      ].join('\n'),
      'src/b.ts': 'export class hidden {}\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), text);
    }
  });
  afterAll(() => {
    rmSync(fixture, { recursive: true, force: true });
  });

  it('lists each undocumented export as `file:line name`, through re-exports and renames', () => {
    const { offenders, checked } = findOffenders(fixture, ['src/index.ts']);
    expect(offenders.map((offender) => offender.where)).toEqual([
      'src/a.ts:11 Bare',
      'src/a.ts:17 Empty',
      'src/a.ts:36 over',
      'src/b.ts:1 renamed',
    ]);
    expect(checked).toBe(7); // documented, Bare, Empty, VALUE, two overloads, renamed
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

  it('gives every public export a JSDoc comment with an @example', () => {
    const missing = found.offenders.map((o) => o.where);
    expect(missing.length, `Public exports without JSDoc + @example:\n${missing.join('\n')}\n`).toBe(0);
  });
});
