/**
 * Renders a rejected value for an option error, in execa's template: `` `-1` (number) ``.
 * Long renderings are cut so one bad option never floods a message.
 *
 * @example
 * ```ts
 * describeValue(-1); // '`-1` (number)'
 * describeValue(null); // '`null` (null)'
 * ```
 */
export function describeValue(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'function') text = value.name === '' ? 'function' : `function ${value.name}`;
  else if (typeof value === 'object' && value !== null) {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  } else text = String(value);
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  return `\`${text}\` (${type})`;
}
