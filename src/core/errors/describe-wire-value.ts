/**
 * Formats an offending wire value for an error message: JSON text (numbers and bigints as
 * written, so `NaN` stays `NaN`), cut at 80 characters, then its type — `-1 (number)`,
 * `"yes" (string)`, `nothing` for a missing value. Never throws, whatever the value.
 * Internal to `src/core/errors`.
 *
 * @example
 * ```ts
 * describeWireValue(Number.NaN); // 'NaN (number)'
 * ```
 */
export function describeWireValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text =
      typeof value === 'number' || typeof value === 'bigint'
        ? String(value)
        : (JSON.stringify(value) ?? String(value));
  } catch {
    text = '[a value that cannot be shown]';
  }
  if (text.length > 80) text = `${text.slice(0, 77)}...`;
  return `${text} (${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`;
}
