/**
 * Formats a rejected value the way execa's option errors do: `` `-1` (number) ``.
 * Internal to `src/adapters`.
 *
 * @example
 * ```ts
 * showValue(-1); // '`-1` (number)'
 * ```
 */
export function showValue(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  let text: string;
  try {
    text = typeof value === 'function' ? '[function]' : String(value);
  } catch {
    text = '[unprintable]';
  }
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  return `\`${text}\` (${type})`;
}
