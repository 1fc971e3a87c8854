import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

/**
 * Bundles `src/index.ts` the way the package's build does (esbuild, ESM, node20; rxjs, zod and
 * execa external) into `node_modules/.cache/sluice-bench/`, where those packages resolve, and
 * returns its file URL.
 *
 * @example
 * ```ts
 * const url = await bundleSluice('/work/main');
 * ```
 */
export async function bundleSluice(root: string): Promise<string> {
  const directory = join(root, 'node_modules', '.cache', 'sluice-bench');
  mkdirSync(directory, { recursive: true });
  const outfile = join(directory, 'sluice.mjs');
  await build({
    entryPoints: [join(root, 'src', 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['rxjs', 'zod', 'execa'],
    outfile,
    logLevel: 'error',
  });
  return pathToFileURL(outfile).href;
}

/**
 * Milliseconds a fresh `node` (no loader, no tsx) spends in `await import(specifier)`, measured
 * inside that process with `performance.now()` (node's own start-up is not counted).
 *
 * @example
 * ```ts
 * await measureImport('rxjs', '/work/main'); // ≈ 100
 * ```
 */
export async function measureImport(specifier: string, cwd: string): Promise<number> {
  const code =
    'const t = performance.now(); await import(process.env.SLUICE_BENCH_IMPORT); ' +
    'console.log(performance.now() - t);';
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], {
    cwd,
    env: { ...process.env, SLUICE_BENCH_IMPORT: specifier },
    encoding: 'utf8',
  });
  return Number(stdout.trim());
}
