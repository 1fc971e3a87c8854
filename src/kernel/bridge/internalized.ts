/**
 * `value` as V8 keeps it in its string table (an internalized string), or `value` itself when it
 * is no string. Two internalized strings are compared by address; a string built at run time
 * (`ext-a:hc-${n}`) is compared by its characters, in a call, at every lookup keyed by it — and
 * the kernel looks a stream up by its call id and its extension's id for every chunk, on both
 * sides (docs/performance.md, "Ids V8 compares by address"). An object's property key is
 * internalized, so the one key of an object made with `value` as its key is `value`,
 * internalized; the characters are the same. (Internal to the bridge.)
 *
 * @example
 * ```ts
 * const id = internalized(`ext-a:hc-${n}`); // equal to the built string, compared by address
 * ```
 */
export function internalized<T>(value: T): T {
  return typeof value === 'string' ? (Object.keys({ [value]: 0 })[0] as T) : value;
}
