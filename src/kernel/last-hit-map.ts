/**
 * A `Map` that answers a `get` of the key it was last asked for without looking it up again. The
 * kernel asks its maps for the same extension and the same call for every chunk of a stream, and
 * a hash lookup costs more time than its few instructions suggest (docs/performance.md, "One call
 * target per call site"). Every `set`, `delete` and `clear` forgets the last answer, so it is never
 * stale. Keys compare with `===`: a `NaN` key is simply looked up each time. (Internal.)
 *
 * @example
 * ```ts
 * const calls = new LastHitMap<string, Pending>();
 * calls.set('hc-1', pending);
 * calls.get('hc-1'); // looked up
 * calls.get('hc-1'); // remembered
 * ```
 */
export class LastHitMap<K, V> extends Map<K, V> {
  // Flags are tested with `=== true` (docs/performance.md, "Flags tested against `true`").
  #remembered = false;
  #key: K | undefined;
  #value: V | undefined;

  // biome-ignore lint/complexity/noUselessConstructor: it takes no entries, which Map's constructor would `set` before the fields exist
  constructor() {
    super();
  }

  override get(key: K): V | undefined {
    if (this.#remembered === true && key === this.#key) return this.#value;
    const value = super.get(key);
    this.#key = key;
    this.#value = value;
    this.#remembered = true;
    return value;
  }

  override set(key: K, value: V): this {
    this.#forget();
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.#forget();
    return super.delete(key);
  }

  override clear(): void {
    this.#forget();
    super.clear();
  }

  #forget(): void {
    this.#remembered = false;
    this.#key = undefined;
    this.#value = undefined;
  }
}
