import { execFileSync } from 'node:child_process';
import { execa } from 'execa';
import { which } from '../../support/system-tools.js';

/**
 * The MCP tools the tests run that need Node ≥ 22 (the Inspector, the conformance suite) run on
 * Node 22 from the npm package `node` (`npx -y node@22`), themselves from npx's cache: `.ci/run`
 * fetches them; elsewhere their tests are skipped with a notice that says how.
 */
const NODE = 'node@22';
const npx = which('npx');

/** `npx` when it can run `pkg` on Node 22 from its cache (no download), else `undefined`. */
export function cachedOnNode22(pkg: string): string | undefined {
  if (npx === undefined) return undefined;
  try {
    const version = execFileSync(npx, ['--offline', '-y', NODE, npx, '--offline', '-y', pkg, '--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 120_000,
    });
    return version.trim() === '' ? undefined : npx;
  } catch {
    return undefined;
  }
}

/** The command that fetches `pkg` and Node 22 into npx's cache, as `.ci/run` does. */
export const fetchOnNode22 = (pkg: string) =>
  `npx -y ${NODE} "$(command -v npx)" -y ${pkg} --version  # as .ci/run does`;

/** Runs `pkg <args>` on Node 22 from npx's cache (never rejects; 2 minutes at most unless told). */
export function runOnNode22(pkg: string, args: readonly string[], timeout = 120_000) {
  return execa(npx as string, ['--offline', '-y', NODE, npx as string, '--offline', '-y', pkg, ...args], {
    reject: false,
    timeout,
  });
}
