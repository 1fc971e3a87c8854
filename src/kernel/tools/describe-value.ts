/**
 * Renders a value for an error message the way execa does: `` `-1` (number) ``-style text, short
 * and typed — `"yes" (string)`, `[1,2] (array)`, `nothing` for `undefined`.
 *
 * @example
 * ```ts
 * import { describeValue } from './describe-value.js'; // internal to the kernel
 * describeValue('yes'); // '"yes" (string)'
 * describeValue(undefined); // 'nothing'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length > 80) text = `${text.slice(0, 77)}...`;
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `${text} (${type})`;
}
