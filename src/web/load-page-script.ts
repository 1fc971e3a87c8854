import { gzipSync } from 'node:zlib';
import type { PageScriptName } from './bundle-page-script.js';

// The package build (tsup.config.ts) replaces this module with one that holds the page's scripts
// bundled and gzipped at build time, so `dist` never imports esbuild. From source it bundles each
// on first use.
const scripts = new Map<PageScriptName, Promise<Buffer>>();

/**
 * One of the run page's scripts (one ES module each: `page`, and `terminal` for terminal runs),
 * gzipped: served as is to browsers (they all accept `gzip`), and small inside the package.
 * Bundled once per process.
 */
export function loadPageScript(name: PageScriptName): Promise<Buffer> {
  let script = scripts.get(name);
  if (script === undefined) {
    script = import('./bundle-page-script.js').then(async ({ bundlePageScript }) =>
      gzipSync(await bundlePageScript(name), { level: 9 }),
    );
    scripts.set(name, script);
  }
  return script;
}
