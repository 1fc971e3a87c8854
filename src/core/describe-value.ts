/**
 * Formats a rejected value the way execa's option errors do: `` `-1` (number) ``, short and typed
 * (`` `[1,2]` (array) ``, `` `null` (null) ``, `` `[function]` (function) ``). Used by every
 * option check in sluice so all messages share one template.
 */
export function describeValue(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  let text: string;
  try {
    text =
      typeof value === 'function'
        ? '[function]'
        : typeof value === 'object' && value !== null
          ? (JSON.stringify(value) ?? String(value))
          : typeof value === 'string' && CONTROL.test(value)
            ? JSON.stringify(value).slice(1, -1) // a line break shows as `\n`, not as one
            : String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  return `\`${text}\` (${type})`;
}

const CONTROL = /[\u0000-\u001f]/;
