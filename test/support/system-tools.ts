import { accessSync, appendFileSync, constants, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { cgroupSupport } from '../../src/sources/exec/cgroup-support.js';
import type { Containment } from '../../src/sources/exec/exec-result.js';
import { enabledControllers } from './cgroups.js';
import { SKIP_KIND } from './skip-summary.js';

/**
 * Tests that need a system tool (a browser, `redis-server`, `python3`, `prlimit`, `script`, …) or
 * Linux itself look it up here. Where it is missing the test is skipped with a one-line notice
 * that says how to get it, so `npm test` passes on an ordinary machine and says what it did not
 * run (under vitest, test/support/skip-summary.ts prints each notice once at the end of the run). CI sets
 * `SLUICE_REQUIRE_SYSTEM_TOOLS=1` (see `.ci/run`), which turns every such skip into a failure.
 */
const REQUIRE = process.env.SLUICE_REQUIRE_SYSTEM_TOOLS === '1';
const noticed = new Set<string>();

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The full path of `name` on `PATH`, or `undefined`. */
export function which(name: string): string | undefined {
  if (name.includes('/')) return executable(name) ? name : undefined;
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A Chromium-family browser for playwright-core: `CHROMIUM_PATH`, then `chromium`,
 * `chromium-browser`, `google-chrome`, `google-chrome-stable` on `PATH`, then Playwright's own
 * download cache (`npx playwright-core install chromium`; `PLAYWRIGHT_BROWSERS_PATH` or its
 * default folder): the revision this playwright-core wants, else any other one there.
 */
export function findBrowser(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '' && executable(fromEnv)) return fromEnv;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    const found = which(name);
    if (found !== undefined) return found;
  }
  // Loaded only here: playwright-core is large, and most test files that need a tool need no browser.
  const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core');
  const wanted = chromium.executablePath();
  if (executable(wanted)) return wanted;
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || defaultPlaywrightCache();
  let entries: string[] = [];
  try {
    entries = readdirSync(cache)
      .filter((entry) => /^chromium-\d+$/.test(entry))
      .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  } catch {
    return undefined;
  }
  const testing = 'Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing';
  for (const entry of entries) {
    for (const relative of [
      'chrome-linux64/chrome',
      'chrome-linux-arm64/chrome',
      'chrome-linux/chrome',
      `chrome-mac-arm64/${testing}`,
      `chrome-mac-x64/${testing}`,
      'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
    ]) {
      const candidate = join(cache, entry, relative);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Where Playwright keeps its browsers when `PLAYWRIGHT_BROWSERS_PATH` is not set. */
function defaultPlaywrightCache(): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'ms-playwright');
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ms-playwright');
}

/**
 * Prints (once per process and `what`) that the tests needing it are skipped because of `missing`,
 * and `hint` (how to get it), or throws under `SLUICE_REQUIRE_SYSTEM_TOOLS=1` — unless `required`
 * is `false`: what no install can bring (a kernel feature the machine does not enable) is a notice
 * there too.
 */
function skipNotice(what: string, missing: string, skipped: string, hint: string, required = true): void {
  if (REQUIRE && required) {
    throw new Error(`${missing}, and SLUICE_REQUIRE_SYSTEM_TOOLS=1 makes that a failure (${hint})`);
  }
  if (noticed.has(what)) return;
  noticed.add(what);
  const line = `[sluice tests] ${missing}: skipping ${skipped} (${hint})`;
  // Under vitest the global setup prints every notice once, at the end, under what
  // SLUICE_REQUIRE_SYSTEM_TOOLS does with it (test/support/skip-summary.ts); otherwise print it now.
  const log = process.env.SLUICE_SKIPPED_LOG;
  try {
    if (log === undefined || log === '') throw new Error('no log');
    appendFileSync(log, `${required ? SKIP_KIND.tool : SKIP_KIND.machine}\t${line}\n`);
  } catch {
    process.stderr.write(`${line}\n`);
  }
}

/**
 * Whether a system tool a test file needs is here. `found` is its path (or `undefined`); when it
 * is missing this prints a one-line notice naming `what` and `how` to get it (once per tool), or
 * throws when `SLUICE_REQUIRE_SYSTEM_TOOLS=1`. Use the result with `describe.skipIf(!…)`.
 *
 * @example
 * ```ts
 * const redis = requireTool('redis-server', which('redis-server'), 'apt-get install redis-server');
 * describe.skipIf(redis === undefined)('the Redis store', () => { … });
 * ```
 */
export function requireTool(what: string, found: string | undefined, how: string): string | undefined {
  if (found !== undefined) return found;
  skipNotice(what, `${what} not found`, 'the tests that need it', `install: ${how}`);
  return undefined;
}

/** Whether this is Linux (process groups as the tests watch them, `/proc`, procps' `ps`, `prlimit`). */
export const isLinux = process.platform === 'linux';

/**
 * What a test may need from the system, besides Node:
 *
 * - `linux` — the tests read `/proc` (a group's live members, a child's `wchar`) and use procps'
 *   `ps` options; sluice itself is Linux-first (docs/reference.md, "Platforms and Node versions");
 * - `python3` — children whose writes block on a full pipe (a Node child's do not);
 * - `ps` — procps' `ps` (`ps -o … -g`, `--ppid`; on another system `ps` takes other options);
 * - `prlimit` — util-linux, behind `exec`'s `rlimits`;
 * - `script` — util-linux's `script`, for a pseudo-terminal;
 * - `tmux` — a terminal the tests can resize and read back.
 */
export type SystemNeed = 'linux' | 'python3' | 'ps' | 'prlimit' | 'script' | 'tmux';

const HOW: Readonly<Record<Exclude<SystemNeed, 'linux'>, string>> = {
  python3: 'apt-get install python3',
  ps: 'apt-get install procps',
  prlimit: 'apt-get install util-linux',
  script: 'apt-get install bsdutils',
  tmux: 'apt-get install tmux',
};

/** `prlimit` where `exec` looks for it: on `PATH`, then in the usual system folders (src/sources/exec/rlimits.ts). */
function findPrlimit(): string | undefined {
  for (const folder of ['', '/usr/bin', '/bin', '/usr/sbin', '/sbin']) {
    const found = which(folder === '' ? 'prlimit' : join(folder, 'prlimit'));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether every one of `what` is here. For each missing one this prints a one-line notice (once
 * per process), or throws when `SLUICE_REQUIRE_SYSTEM_TOOLS=1`, as {@link requireTool} does. Use
 * it with `describe.skipIf(!needs(…))` or `it.skipIf(!needs(…))`.
 *
 * @example
 * ```ts
 * describe.skipIf(!needs('linux', 'python3'))('exec backpressure (a python3 child)', () => { … });
 * ```
 */
export function needs(...what: SystemNeed[]): boolean {
  let all = true;
  for (const need of what) {
    if (need === 'linux') {
      if (isLinux) continue;
      skipNotice(
        'linux',
        `this is ${process.platform}, not Linux`,
        'the tests that watch process groups through /proc and procps',
        'they run on Linux only',
      );
      all = false;
      continue;
    }
    const found = need === 'ps' && !isLinux ? undefined : need === 'prlimit' ? findPrlimit() : which(need);
    if (requireTool(need, found, HOW[need]) === undefined) all = false;
  }
  return all;
}

/**
 * Whether runs can get their own cgroup here, as sluice itself decides it (a writable cgroup v2:
 * root, or a delegated subtree). Otherwise a notice names why, or under
 * `SLUICE_REQUIRE_SYSTEM_TOOLS=1` it throws: CI runs as root on a machine with cgroup v2.
 *
 * @example
 * ```ts
 * describe.skipIf(!needsCgroup())('exec in a cgroup', () => { … });
 * ```
 */
export function needsCgroup(): boolean {
  const support = cgroupSupport();
  if (!('unavailable' in support)) return true;
  skipNotice(
    'cgroup',
    `no writable cgroup v2 (${support.unavailable})`,
    'the tests of containment by cgroup',
    'run them as root on Linux, or in `systemd-run --user --scope -p Delegate=yes`',
  );
  return false;
}

/**
 * The containments a test of exec's real-process paths runs under: `'group'` everywhere (the path of
 * every user without cgroups: not root, macOS, most containers), and `'cgroup'` where runs can get
 * one here ({@link needsCgroup}). A test that passes `'auto'` alone would guard only one of them:
 * a cgroup's `cgroup.kill` cleans up after a process group's kill that missed members.
 *
 * @example
 * ```ts
 * describe.each(containments())('exec cancel (containment %s)', (containment) => { … });
 * ```
 */
export function containments(): Containment[] {
  return needs('linux') && needsCgroup() ? ['group', 'cgroup'] : ['group'];
}

/**
 * Whether the cgroup v2 controllers `names` (`memory`, `pids`, `cpu`) are enabled for the runs of
 * this process (listed in its cgroup's `cgroup.subtree_control`). Otherwise a notice says which
 * controller is not enabled on this machine — never a failure, even under
 * `SLUICE_REQUIRE_SYSTEM_TOOLS=1`: no tool is missing, the machine's cgroup tree hands the
 * controller down or not (CI's machine, a hybrid layout, enables none).
 *
 * @example
 * ```ts
 * it.skipIf(!needsControllers('pids'))('a fork bomb is capped by limits.pids', async () => { … });
 * ```
 */
export function needsControllers(...names: string[]): boolean {
  const support = cgroupSupport();
  if ('unavailable' in support) return needsCgroup();
  const enabled = enabledControllers();
  const missing = names.filter((name) => !enabled.includes(name));
  if (missing.length === 0) return true;
  for (const name of missing) {
    skipNotice(
      `controller ${name}`,
      `the cgroup v2 \`${name}\` controller is not enabled on this machine (not in ${support.base}/cgroup.subtree_control)`,
      `the tests of the \`${name}\` limit`,
      `where it is wanted: echo +${name} > ${support.base}/cgroup.subtree_control`,
      false,
    );
  }
  return false;
}

/**
 * Which of the cgroup v2 controllers `names` are not enabled for the runs of this process: the
 * tests of `LIMIT_UNAVAILABLE` need one. Where every one is enabled, a notice says that those tests
 * are skipped (never a failure: the limits' own tests run instead, {@link needsControllers}).
 *
 * @example
 * ```ts
 * const notEnabled = controllersNotEnabled('memory', 'pids', 'cpu');
 * it.skipIf(notEnabled.length === 0)('a limit without its controller fails with LIMIT_UNAVAILABLE', …);
 * ```
 */
export function controllersNotEnabled(...names: string[]): string[] {
  const enabled = enabledControllers();
  const missing = names.filter((name) => !enabled.includes(name));
  if (missing.length === 0) {
    skipNotice(
      `controllers ${names.join(' ')} all enabled`,
      `every one of the cgroup v2 controllers ${names.join(', ')} is enabled on this machine`,
      'the tests of LIMIT_UNAVAILABLE for a limit whose controller is not enabled',
      'they run where a controller is not enabled; the tests of the limits themselves ran instead',
      false,
    );
  }
  return missing;
}
