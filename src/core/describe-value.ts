/**
 * The one way sluice shows a rejected value: short text and its type, never throwing. `'option'`
 * (the API's options and arguments): `` `-1` (number) ``, cut at 60. `'json'` (JSON from outside):
 * `"yes" (string)`, `nothing` when missing, cut at 80.
 */
export function describeValue(value: unknown, form: 'option' | 'json' = 'option'): string {
  if (form === 'json' && value === undefined) return 'nothing';
  let text: string;
  try {
    text = form === 'json' ? jsonText(value) : optionText(value);
  } catch {
    text = form === 'json' ? '[a value that cannot be shown]' : Object.prototype.toString.call(value);
  }
  const max = form === 'json' ? 80 : 60;
  if (text.length > max) text = `${text.slice(0, max - 3)}...`;
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return form === 'json' ? `${text} (${type})` : `\`${text}\` (${type})`;
}

function optionText(value: unknown): string {
  if (typeof value === 'function') return '[function]';
  if (typeof value === 'object' && value !== null) return JSON.stringify(value) ?? String(value);
  // A line break shows as `\n`, not as one.
  if (typeof value === 'string' && CONTROL.test(value)) return JSON.stringify(value).slice(1, -1);
  return String(value);
}

function jsonText(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? String(value);
}

const CONTROL = /[\u0000-\u001f]/;
