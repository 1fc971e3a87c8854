/**
 * Throws a `TypeError` for the first key of `options` not in `known`, so a misspelt option is an
 * error: "Unknown `timeout` option (known options: timeoutMs, reject)". `prefix` names a nested
 * bag; anything but an object is left for the caller's type check.
 */
export function rejectUnknownOptions(options: unknown, known: readonly string[], prefix = ''): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return;
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`Unknown \`${prefix}${key}\` option (known options: ${known.join(', ')})`);
    }
  }
}
