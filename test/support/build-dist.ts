import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Options } from 'tsup';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Every input of the build: when one is newer than `dist`, `dist` is stale. */
const INPUTS = ['src', 'tsup.config.ts', 'package.json'];
/** Files every build writes: the oldest of them is when `dist` was last built. */
const OUTPUTS = ['dist/index.js', 'dist/index.cjs', 'dist/cli/main.js', 'dist/web/index.js'];

/** The newest modification time of `path` or of any file under it (0 if it does not exist). */
function newestUnder(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestUnder(join(path, name)));
  return newest;
}

/** Whether `dist` was built after the last change of any input of the build. */
export function distIsFresh(root = ROOT): boolean {
  const built = OUTPUTS.map((path) => join(root, path));
  if (!built.every((path) => existsSync(path))) return false;
  const builtAt = Math.min(...built.map((path) => statSync(path).mtimeMs));
  return INPUTS.every((input) => newestUnder(join(root, input)) < builtAt);
}

/**
 * vitest's global setup: the package is built once per run, for every test that runs what users
 * run (the `sluice` CLI as `node dist/cli/main.js`, the package as installed). A `dist` newer than
 * every source file is used as it is (`npm test` builds it, with type declarations, before the
 * tests); otherwise `dist` is built here with the project's tsup config, without type
 * declarations, which takes a few seconds.
 */
export default async function setup(): Promise<void> {
  if (distIsFresh()) return;
  const started = performance.now();
  const { default: config } = await import('../../tsup.config.js');
  const configs = (Array.isArray(config) ? config : [config]) as Options[];
  const cwd = process.cwd();
  process.chdir(ROOT); // the config's paths are relative to the project
  try {
    for (const options of configs) await build({ ...options, config: false, dts: false, silent: true });
  } finally {
    process.chdir(cwd);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(`[sluice tests] built dist/ (no type declarations) in ${seconds} s\n`);
}

/**
 * Installs the package as built (`dist` and package.json) into `<target>/node_modules/sluice`, as
 * a user's npm would put it, and returns that folder; nothing else of the project comes along.
 */
export function installDist(target: string, root = ROOT): string {
  const packageDir = join(target, 'node_modules', 'sluice');
  rmSync(packageDir, { recursive: true, force: true });
  mkdirSync(packageDir, { recursive: true });
  cpSync(join(root, 'dist'), join(packageDir, 'dist'), { recursive: true });
  copyFileSync(join(root, 'package.json'), join(packageDir, 'package.json'));
  return packageDir;
}
