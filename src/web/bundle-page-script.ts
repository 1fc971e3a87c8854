import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles the run page's script (`src/web/page/main.ts`, with the `sluice/browser` parts it uses,
 * rxjs and ansi_up) into one minified ES module for browsers. `platform: 'browser'` makes the
 * build fail if anything on the page's import graph needs Node. The package build runs this once
 * and ships the result inside `dist` (see `tsup.config.ts`); from source (`npm start`, tests)
 * {@link loadPageScript} runs it on first use. esbuild is a development dependency only.
 */
export async function bundlePageScript(
  entry = fileURLToPath(new URL('./page/main.ts', import.meta.url)),
): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    banner: {
      js: '/* sluice run page. Bundles rxjs (Apache-2.0), zod (MIT) and ansi_up (MIT); their licenses are in their npm packages. */',
    },
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild produced no output for the run page');
  return output.text;
}
