import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { bundlePageScript } from './src/web/bundle-page-script.js';

// The run page's script (src/web/page/main.ts) is bundled for browsers once, here, and shipped
// gzipped inside the module that serves it: `dist` never bundles at run time nor imports esbuild.
let pageScript: Promise<string> | undefined;
const pageScriptPlugin: Plugin = {
  name: 'sluice-page-script',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]web[\\/]load-page-script\.ts$/ }, async () => {
      pageScript ??= bundlePageScript(resolve('src/web/page/main.ts')).then((text) =>
        gzipSync(text, { level: 9 }).toString('base64'),
      );
      const base64 = await pageScript;
      return {
        loader: 'ts',
        contents: `let script: Promise<Buffer> | undefined;
export function loadPageScript(): Promise<Buffer> {
  script ??= Promise.resolve(Buffer.from(${JSON.stringify(base64)}, 'base64'));
  return script;
}
`,
      };
    });
  },
};

// No source maps: dist is not minified, so a stack trace into it reads as it is, and maps (with
// the sources inside them) were 61% of the unpacked package.
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'sources/index': 'src/sources/index.ts',
      'operators/index': 'src/operators/index.ts',
      'adapters/index': 'src/adapters/index.ts',
      'kernel/index': 'src/kernel/index.ts',
      'testing/index': 'src/testing/index.ts',
      'browser/index': 'src/browser/index.ts',
      'redis/index': 'src/redis/index.ts',
      'mcp/index': 'src/mcp/index.ts',
      'web/index': 'src/web/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'node20',
    splitting: true,
    shims: true,
    treeshake: true,
    external: ['rxjs', 'zod', 'execa', 'signal-exit', 'ioredis', /^@modelcontextprotocol\/sdk(\/|$)/],
    esbuildPlugins: [pageScriptPlugin],
  },
  {
    entry: { 'cli/main': 'src/cli/main.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['rxjs', 'zod', 'execa', 'signal-exit', 'ioredis', /^@modelcontextprotocol\/sdk(\/|$)/],
    esbuildPlugins: [pageScriptPlugin],
  },
]);
