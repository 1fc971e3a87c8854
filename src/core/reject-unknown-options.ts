/**
 * Throws a `TypeError` for the first key of `options` that is not in `known`, so a misspelt
 * option (`timeout` for `timeoutMs`) is an error instead of being silently ignored:
 * "Unknown `timeout` option (known options: timeoutMs, reject)". `prefix` names a nested bag
 * (`'rlimits.'` → "Unknown `rlimits.cpu` option"). Anything that is not a plain object (or
 * `undefined`) is left for the caller's type check. Internal: not exported from the package.
 *
 * @example
 * ```ts
 * import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
 * rejectUnknownOptions({ bufferSize: 4, stratgy: 'sliding' }, ['bufferSize', 'strategy']);
 * // TypeError: Unknown `stratgy` option (known options: bufferSize, strategy)
 * ```
 */
export function rejectUnknownOptions(options: unknown, known: readonly string[], prefix = ''): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return;
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`Unknown \`${prefix}${key}\` option (known options: ${known.join(', ')})`);
    }
  }
}
