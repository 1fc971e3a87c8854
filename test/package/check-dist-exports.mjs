// Run by `npm run test:package` after the build. What each entry point of the package holds at
// run time, read from `dist` as a consumer's Node loads it:
//
// - the library's files (everything in `dist` but the CLI bundle) import RxJS through its public
//   entry points only (`rxjs`, `rxjs/operators`, `rxjs/testing`), never `rxjs/internal/*`, whose layout no semver
//   range covers;
// - every entry point, ESM and CommonJS, exports at run time exactly the values its types declare
//   (TypeScript's view of its `.d.ts`): nothing more (`sluice/operators` does not hand out `exec`),
//   nothing less.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const require = createRequire(import.meta.url);
const failures = [];

/** Every file under `folder`, recursively. */
function filesUnder(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const PUBLIC_RXJS = new Set(['rxjs', 'rxjs/operators', 'rxjs/testing']);
const library = filesUnder(dist).filter(
  (path) => /\.(c?js|d\.c?ts)$/.test(path) && !relative(dist, path).startsWith('cli'),
);
for (const path of library) {
  const text = readFileSync(path, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s*|require\(\s*|import\(\s*)["'](rxjs(?:\/[^"']*)?)["']/g)];
  for (const [, specifier] of specifiers) {
    if (!PUBLIC_RXJS.has(specifier)) failures.push(`${relative(root, path)} imports \`${specifier}\``);
  }
  if (text.includes('rxjs/internal')) failures.push(`${relative(root, path)} mentions rxjs/internal`);
}

const entryPoints = Object.entries(pkg.exports).filter(([key]) => key !== './package.json');
const program = ts.createProgram(
  entryPoints.flatMap(([, conditions]) =>
    [conditions.import.types, conditions.require.types].map((path) => join(root, path)),
  ),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
  },
);
const checker = program.getTypeChecker();

/** The names of the values (not types) `dtsPath` exports, as TypeScript sees them. */
function declaredValues(dtsPath) {
  const module = checker.getSymbolAtLocation(program.getSourceFile(dtsPath));
  if (module === undefined) throw new Error(`${dtsPath}: not a module`);
  return checker
    .getExportsOfModule(module)
    .filter((symbol) => {
      if (checker.getTypeOnlyAliasDeclaration(symbol) !== undefined) return false;
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    })
    .map((symbol) => symbol.name)
    .sort();
}

const compare = (label, actual, declared) => {
  const extra = actual.filter((name) => !declared.includes(name));
  const missing = declared.filter((name) => !actual.includes(name));
  if (extra.length > 0)
    failures.push(`${label} exports at run time what its types do not declare: ${extra.join(', ')}`);
  if (missing.length > 0)
    failures.push(`${label} lacks at run time what its types declare: ${missing.join(', ')}`);
};

for (const [key, conditions] of entryPoints) {
  const name = key === '.' ? 'sluice' : `sluice/${key.slice(2)}`;
  const esm = await import(pathToFileURL(join(root, conditions.import.default)).href);
  compare(`${name} (import)`, Object.keys(esm).sort(), declaredValues(join(root, conditions.import.types)));
  const cjs = require(join(root, conditions.require.default));
  const cjsKeys = Object.keys(cjs).filter((key) => key !== '__esModule');
  compare(`${name} (require)`, cjsKeys.sort(), declaredValues(join(root, conditions.require.types)));
}

if (failures.length > 0) {
  console.error(`dist does not hold what it should:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `dist: ${library.length} library files import only rxjs's public entry points; ${entryPoints.length} entry points export at run time exactly what their types declare (ESM and CommonJS).`,
);
