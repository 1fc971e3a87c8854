import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild, type Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { bundlePageScript, PAGE_SCRIPTS, type PageScriptName } from './src/web/bundle-page-script.js';

// The run page's scripts (src/web/page/main.ts, and the terminal view it loads for terminal runs)
// are bundled for browsers once, here, and shipped gzipped inside the module that serves them:
// `dist` never bundles at run time nor imports esbuild.
let pageScripts: Promise<Record<string, string>> | undefined;
const bakePageScripts = async () => {
  const baked: Record<string, string> = {};
  for (const [name, { entry }] of Object.entries(PAGE_SCRIPTS)) {
    const text = await bundlePageScript(name as PageScriptName, resolve('src/web', entry));
    baked[name] = gzipSync(text, { level: 9 }).toString('base64');
  }
  return baked;
};
const pageScriptPlugin: Plugin = {
  name: 'sluice-page-script',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]web[\\/]load-page-script\.ts$/ }, async () => {
      pageScripts ??= bakePageScripts();
      const baked = await pageScripts;
      return {
        loader: 'ts',
        contents: `const baked: Record<string, string> = ${JSON.stringify(baked)};
const scripts = new Map<string, Promise<Buffer>>();
export function loadPageScript(name: string): Promise<Buffer> {
  let script = scripts.get(name);
  if (script === undefined) {
    script = Promise.resolve(Buffer.from(baked[name] ?? '', 'base64'));
    scripts.set(name, script);
  }
  return script;
}
`,
      };
    });
  },
};

// The CLI bundles its dependencies, so `sluice exec -- cmd` loads a few files of its own instead of
// hundreds in node_modules (docs/benchmarks.md, "start"). rxjs's package sends Node to its
// CommonJS build (all of it, ~220 files); the CLI takes its ES modules instead, so that only what
// it uses is bundled.
const rxjsRoot = dirname(createRequire(import.meta.url).resolve('rxjs/package.json'));
const rxjsAsEsm: Plugin = {
  name: 'sluice-rxjs-esm',
  setup(build) {
    build.onResolve({ filter: /^rxjs$/ }, () => ({ path: join(rxjsRoot, 'dist/esm/index.js') }));
  },
};

// `sluice/sources`, `sluice/operators` and `sluice/adapters` are parts of the root entry: their
// code is the root's, re-exported by name — exactly the values their own index.ts exports, as
// their types say (test/package/check-dist-exports.mjs), not the whole root. Built as entries of
// their own they would cut the root into a chunk per combination of entries that shares a module
// — 22 files for `import 'sluice'` instead of 13, which costs start-up time (docs/benchmarks.md,
// "start").
const SUBSETS = ['sources', 'operators', 'adapters'] as const;
async function valueExportsOf(path: string): Promise<string[]> {
  const { metafile } = await esbuild({
    entryPoints: [path],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
  });
  return Object.values(metafile.outputs).flatMap((output) => output.exports);
}
const subsetOfRoot: Plugin = {
  name: 'sluice-subset-of-root',
  setup(build) {
    const root = build.initialOptions.format === 'cjs' ? '../index.cjs' : '../index.js';
    build.onLoad({ filter: /[\\/]src[\\/](sources|operators|adapters)[\\/]index\.ts$/ }, async (args) => ({
      contents: `export { ${(await valueExportsOf(args.path)).join(', ')} } from ${JSON.stringify(root)};\n`,
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\.\/index\.c?js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
// A module that loads `target`'s code as a whole: esbuild's code splitting then puts `target`'s
// modules in one chunk, shared, instead of one chunk per combination of entries (or lazily loaded
// modules) that share a module. On Node 20 each ES module file costs about 1 ms to load, whatever
// its size (docs/benchmarks.md, "Start-up").
const KEEP = Symbol('keep');
const relativeImport = (from: string, to: string) =>
  `./${relative(dirname(from), resolve(to)).split(sep).join('/')}`.replace(/^\.\/\.\.\//, '../');
function loadsAsWhole(name: string, modules: RegExp, target: string): Plugin {
  return {
    name,
    setup(build) {
      build.onLoad({ filter: modules }, async (args) => ({
        contents: `${await readFile(args.path, 'utf8')}\nimport ${JSON.stringify(relativeImport(args.path, target))};\n`,
        loader: 'ts',
      }));
      // The package says `sideEffects: false`, which would drop that bare import: within src, a
      // module imported is a module kept.
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === KEEP || !/[\\/]src[\\/]/.test(args.importer)) return undefined;
        const { path, errors } = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: KEEP,
        });
        return errors.length > 0 ? { errors } : { path, sideEffects: true };
      });
    },
  };
}
// Every Node entry point loads the root entry: `import 'sluice'` reads 3 files instead of 13 (the
// third: what it shares with `sluice/browser`, which must not load the root entry).
const NODE_ENTRIES = ['kernel', 'testing', 'redis', 'mcp', 'web'] as const;
const rootAsWhole = loadsAsWhole(
  'sluice-root-as-whole',
  /[\\/]src[\\/](kernel|testing|redis|mcp|web)[\\/]index\.ts$/,
  'src/index.ts',
);
// Every module the CLI loads lazily (--json, follow --json, --web, Redis, mcp, the web server)
// loads the code of `sluice exec` itself, so that what they share with it is in its chunks, not in
// chunks of their own: `sluice exec -- cmd` reads 3 files of the CLI instead of 15. (Loaded after
// `sluice exec`'s code, they load nothing more for it.)
const CLI_LAZY = [
  'cli/exec-json',
  'cli/run-frame-writer',
  'cli/exec-redis',
  'cli/web/run-web',
  'cli/mcp/run-mcp',
  'cli/mcp/run-mcp-http',
  'web/run-registry',
  'web/start-web-server',
  'redis/index',
  'redis/redis-run-store',
];
const cliAsWhole = loadsAsWhole(
  'sluice-cli-as-whole',
  new RegExp(`[\\\\/]src[\\\\/](${CLI_LAZY.map((path) => path.split('/').join('[\\\\/]')).join('|')})\\.ts$`),
  'src/cli/run-cli.ts',
);
const ENTRIES = {
  index: 'src/index.ts',
  'browser/index': 'src/browser/index.ts',
  ...Object.fromEntries(NODE_ENTRIES.map((name) => [`${name}/index`, `src/${name}/index.ts`])),
};

// No source maps: dist is not minified, so a stack trace into it reads as it is, and maps (with
// the sources inside them) were 61% of the unpacked package.
export default defineConfig([
  {
    entry: ENTRIES,
    format: ['esm', 'cjs'],
    dts: {
      entry: {
        ...ENTRIES,
        ...Object.fromEntries(SUBSETS.map((name) => [`${name}/index`, `src/${name}/index.ts`])),
      },
    },
    clean: true,
    target: 'node20',
    splitting: true,
    shims: true,
    treeshake: true,
    external: [
      /^rxjs(\/|$)/,
      'zod',
      'signal-exit',
      'ioredis',
      /^@modelcontextprotocol\/sdk(\/|$)/,
      /^@xterm\//,
    ],
    esbuildPlugins: [rootAsWhole, pageScriptPlugin],
  },
  {
    entry: Object.fromEntries(SUBSETS.map((name) => [`${name}/index`, `src/${name}/index.ts`])),
    format: ['esm', 'cjs'],
    target: 'node20',
    esbuildPlugins: [subsetOfRoot],
  },
  {
    // `dist/cli/main.js` and the chunks it loads, with rxjs, zod and signal-exit inside. ioredis
    // and the MCP SDK stay outside, loaded only by the subcommands that need them; code split so
    // that what `sluice exec` does not need (--json, --web, Redis, mcp) is not even read.
    entry: { main: 'src/cli/main.ts' },
    outDir: 'dist/cli',
    format: ['esm'],
    target: 'node20',
    splitting: true,
    banner: { js: '#!/usr/bin/env node' },
    noExternal: ['rxjs', 'zod', 'signal-exit'],
    external: ['ioredis', /^@modelcontextprotocol\/sdk(\/|$)/, /^@xterm\//],
    esbuildPlugins: [cliAsWhole, rxjsAsEsm, pageScriptPlugin],
  },
]);
