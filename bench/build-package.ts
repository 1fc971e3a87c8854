import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Options } from 'tsup';
import config from '../tsup.config.js';

/**
 * Builds the package the way `npm run build` does — the project's own `tsup.config.ts`, without
 * type declarations and source maps — into `<target>/node_modules/sluice/`, so that a script in
 * `target` imports `sluice` as an installed package (and rxjs, execa from the project's
 * `node_modules`, further up). Takes a few seconds.
 *
 * @example
 * ```ts
 * await buildPackage('/work/main', '/work/main/node_modules/.cache/sluice-bench/start');
 * // then: node /work/main/node_modules/.cache/sluice-bench/start/script.mjs
 * ```
 */
export async function buildPackage(root: string, target: string): Promise<string> {
  const packageDir = join(target, 'node_modules', 'sluice');
  rmSync(packageDir, { recursive: true, force: true });
  mkdirSync(packageDir, { recursive: true });
  const configs = (Array.isArray(config) ? config : [config]) as Options[];
  for (const options of configs) {
    await build({
      ...options,
      config: false,
      dts: false,
      sourcemap: false,
      silent: true,
      clean: false,
      outDir: join(packageDir, options.outDir ?? 'dist'),
    });
  }
  copyFileSync(join(root, 'package.json'), join(packageDir, 'package.json'));
  return packageDir;
}
