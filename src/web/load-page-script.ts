import { gzipSync } from 'node:zlib';

// The package build (tsup.config.ts) replaces this module with one that holds the page script
// bundled and gzipped at build time, so `dist` never imports esbuild. From source it bundles on
// first use.
let script: Promise<Buffer> | undefined;

/**
 * The run page's script (one ES module), gzipped: served as is to browsers (they all accept
 * `gzip`), and small inside the package. Bundled once per process.
 */
export function loadPageScript(): Promise<Buffer> {
  script ??= import('./bundle-page-script.js').then(async ({ bundlePageScript }) =>
    gzipSync(await bundlePageScript(), { level: 9 }),
  );
  return script;
}
