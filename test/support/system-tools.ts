import { accessSync, constants, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * Tests that need a system tool (a browser, `redis-server`, `prlimit`, `script`, …) look it up
 * here. Where it is missing the test is skipped with a one-line notice on stderr that says how to
 * get it, so `npm test` passes on an ordinary machine and says what it did not run. CI sets
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
 * `chromium-browser`, `google-chrome` on `PATH`, then Playwright's own download cache.
 */
export function findBrowser(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '' && executable(fromEnv)) return fromEnv;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    const found = which(name);
    if (found !== undefined) return found;
  }
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH ?? join(homedir(), '.cache', 'ms-playwright');
  let entries: string[] = [];
  try {
    entries = readdirSync(cache)
      .filter((entry) => entry.startsWith('chromium'))
      .sort()
      .reverse();
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    for (const relative of [
      'chrome-linux/chrome',
      'chrome-linux64/chrome',
      'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
    ]) {
      const candidate = join(cache, entry, relative);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
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
  const message = `${what} not found: skipping the tests that need it (install: ${how})`;
  if (REQUIRE) throw new Error(`SLUICE_REQUIRE_SYSTEM_TOOLS=1 and ${message}`);
  if (!noticed.has(what)) {
    noticed.add(what);
    process.stderr.write(`[sluice tests] ${message}\n`);
  }
  return undefined;
}

/** Whether this is Linux (process groups, `/proc`, `prlimit` and the pty tests assume it). */
export const isLinux = process.platform === 'linux';
