import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles `page.ts` (and the `sluice/browser` entry it imports, with rxjs and zod) into one ES
 * module for the browser, in memory. `platform: 'browser'` makes the build fail if anything on
 * the page's import graph needs Node.
 *
 * @example
 * ```ts
 * const script = await bundlePage(); // serve as /page.js
 * ```
 */
export async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild produced no output for page.ts');
  return output.text;
}
