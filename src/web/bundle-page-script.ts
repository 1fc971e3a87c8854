import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * The run page's scripts, by name (each served as `/assets/<name>.js`): the page itself, and the
 * terminal view it loads only for terminal runs (xterm.js is most of its size). Entries are
 * relative to `src/web`.
 */
export const PAGE_SCRIPTS = {
  page: { entry: 'page/main.ts', bundles: 'rxjs (Apache-2.0), zod (MIT) and ansi_up (MIT)' },
  terminal: { entry: 'page/terminal-view.ts', bundles: 'xterm.js (MIT)' },
} as const;

/** The name of one of the page's scripts. */
export type PageScriptName = keyof typeof PAGE_SCRIPTS;

/**
 * Bundles one of the run page's scripts (`page`: `src/web/page/main.ts`, with the `sluice/browser`
 * parts it uses, rxjs and ansi_up; `terminal`: the terminal view, with xterm.js and its style
 * sheet as text) into one minified ES module for browsers. `platform: 'browser'` makes the build
 * fail if anything on its import graph needs Node. The package build runs this once per script
 * and ships the results inside `dist` (see `tsup.config.ts`); from source (`npm start`, tests)
 * {@link loadPageScript} runs it on first use. esbuild and xterm.js are development dependencies
 * only.
 */
export async function bundlePageScript(
  name: PageScriptName = 'page',
  entry = fileURLToPath(new URL(PAGE_SCRIPTS[name].entry, import.meta.url)),
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
    loader: { '.css': 'text' },
    banner: {
      js: `/* sluice run page. Bundles ${PAGE_SCRIPTS[name].bundles}; their licenses are in their npm packages. */`,
    },
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild produced no output for the run page's ${name} script`);
  return output.text;
}
