import { readFileSync } from 'node:fs';

/**
 * The version `sluice --version` prints: the package's own, from its `package.json` (two levels up
 * from `src/cli/` and from `dist/cli/` alike).
 *
 * @example
 * ```ts
 * io.stdout.write(`sluice ${packageVersion()}\n`); // sluice 0.1.0
 * ```
 */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
