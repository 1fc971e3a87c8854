import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Options } from 'tsup';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Every input of the build: when one is newer than `dist`, `dist` is stale. */
const INPUTS = ['src', 'tsup.config.ts', 'package.json', 'package-lock.json'];
/** Files every build writes: the oldest of them is when `dist` was last built. */
const OUTPUTS = ['dist/index.js', 'dist/index.cjs', 'dist/cli/main.js', 'dist/web/index.js'];
/** Where the test runs' own builds go, one folder per content of the inputs. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'sluice-test-dist');
/** A build in the cache not used for this long is removed by the next build. */
const KEEP_UNUSED_MS = 2 * 60 * 60 * 1000;
/** How the global setup tells the test processes which build to run (a folder like `dist`). */
const DIST_VARIABLE = 'SLUICE_TEST_DIST';

/** Every file under `path` (itself, if it is one), sorted. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** The newest modification time of `path` or of any file or folder under it (0 if it does not exist). */
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

/** A name for the content of every input of the build (paths and bytes). */
function inputsKey(root = ROOT): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => filesUnder(join(root, input)))) {
    hash
      .update(`${file.slice(root.length)}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the package with the project's tsup config (as `npm run build` does) into `target/dist`,
 * one part of it: `'code'` the JavaScript of every entry (what the tests run), `'types'` the type
 * declarations (what the package checks read, and the slow part). The code's build first empties
 * `target/dist`; a `target` other than the project gets its package.json too, which the CLI reads
 * its version from (`packageVersion` in src/cli/run-cli.ts).
 */
export async function buildPackage(target: string, part: 'code' | 'types'): Promise<void> {
  const [{ build }, { default: config }] = await Promise.all([
    import('tsup'),
    import('../../tsup.config.js'),
  ]);
  const configs = (Array.isArray(config) ? config : [config]) as Options[];
  if (part === 'code') rmSync(join(target, 'dist'), { recursive: true, force: true });
  const cwd = process.cwd();
  process.chdir(ROOT); // the config's paths are relative to the project
  try {
    await Promise.all(
      configs
        .filter((options) => part === 'code' || options.dts)
        .map((options) =>
          build({
            ...options,
            config: false,
            clean: false,
            silent: true,
            outDir: join(target, options.outDir ?? 'dist'),
            dts: part === 'types' && typeof options.dts === 'object' ? { ...options.dts, only: true } : false,
          }),
        ),
    );
  } finally {
    process.chdir(cwd);
  }
  if (target !== ROOT) copyFileSync(join(ROOT, 'package.json'), join(target, 'package.json'));
}

/** Removes the cached builds nobody used for a while (never one a run may still be using). */
function pruneCache(keep: string): void {
  for (const name of existsSync(CACHE) ? readdirSync(CACHE) : []) {
    const path = join(CACHE, name);
    if (path !== keep && Date.now() - statSync(path).mtimeMs > KEEP_UNUSED_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

/**
 * The build of the current sources in the cache, built now if there is none: in a folder of its
 * own first, then renamed into place, so that runs side by side in one checkout never see half
 * of one, and a run's build is never replaced under it.
 */
async function cachedBuild(): Promise<string> {
  const folder = join(CACHE, inputsKey());
  if (existsSync(folder)) {
    const now = new Date();
    utimesSync(folder, now, now);
    return realpathSync(join(folder, 'dist')); // as Node names the modules it loads from there
  }
  const started = performance.now();
  const building = `${folder}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  await buildPackage(building, 'code');
  try {
    renameSync(building, folder);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another run put the same build in place first
  }
  pruneCache(folder);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(`[sluice tests] built the package (no type declarations) in ${seconds} s\n`);
  return realpathSync(join(folder, 'dist'));
}

/**
 * vitest's global setup: the package is built once per run, for every test that runs what users
 * run (the `sluice` CLI as `node <dist>/cli/main.js`, the package as installed). A `dist` newer than
 * every input of the build is used as it is (`npm test` builds it, with type declarations, before
 * the tests). Otherwise the tests get a build of their own, without type declarations (a few
 * seconds), kept in `node_modules/.cache/sluice-test-dist` under a name made of the sources'
 * content: `dist` itself is written only by `npm run build`, so a test run never takes the type
 * declarations out of it, nor changes it under another run or under the package checks.
 */
export default async function setup(): Promise<void> {
  process.env[DIST_VARIABLE] = distIsFresh() ? join(ROOT, 'dist') : await cachedBuild();
}

/** The folder of the build the tests run: `dist`, or the test run's own (see {@link setup}). */
export function testDist(): string {
  return process.env[DIST_VARIABLE] ?? join(ROOT, 'dist');
}

/**
 * Installs the package as built (`dist`, by default the tests' build, and package.json) into
 * `<target>/node_modules/sluice`, as a user's npm would put it, and returns that folder; nothing
 * else of the project comes along.
 */
export function installDist(target: string, dist = testDist()): string {
  const packageDir = join(target, 'node_modules', 'sluice');
  rmSync(packageDir, { recursive: true, force: true });
  mkdirSync(packageDir, { recursive: true });
  cpSync(dist, join(packageDir, 'dist'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(packageDir, 'package.json'));
  return packageDir;
}

// `tsx test/support/build-dist.ts code|types`: one part of the build into the project's `dist`
// (test/support/run-checks.mjs runs the tests as soon as the code is built).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const part = process.argv[2];
  if (part !== 'code' && part !== 'types') throw new Error(`usage: build-dist.ts code|types, got ${part}`);
  await buildPackage(ROOT, part);
}
