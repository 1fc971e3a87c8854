/**
 * The one way sluice shows a rejected value in a message: short text and its type.
 *
 * - `'option'` (the default), for options and arguments of the API, in execa's template:
 *   `` `-1` (number) ``, `` `[1,2]` (array) ``, `` `null` (null) ``, `` `[function]` (function) ``;
 *   a string as it is (a line break shows as `\n`); cut at 60 characters.
 * - `'json'`, for JSON that arrived from outside (`describeIssue`): the value as JSON text —
 *   `"yes" (string)`, `[1,2] (array)`, numbers as written (`NaN`), `nothing` for a missing
 *   value; cut at 80 characters.
 *
 * Never throws, whatever the value.
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
