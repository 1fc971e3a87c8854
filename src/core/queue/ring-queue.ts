const MIN_CAPACITY = 16;

/** The array of every empty ring: no room, so the next push makes a new array (see `#grow`). */
const NONE: never[] = new Array<never>(0);

/**
 * A FIFO on a ring buffer that grows by doubling, O(1) at both ends: the one queue under every
 * buffer in sluice. A slot is cleared when its value leaves, so it never keeps a value alive.
 */
export class RingQueue<T> {
  #items: (T | undefined)[] = NONE;
  /** The last array's capacity − 1 (16 − 1 at first): kept when the array is let go. */
  #mask = MIN_CAPACITY - 1;
  #head = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Appends `value`; always `true` (the store contract of {@link DemandQueue}). */
  push(value: T): boolean {
    // Locals, not repeated field reads (docs/performance.md, "Smaller hot functions").
    const size = this.#size;
    if (size === this.#items.length) this.#grow();
    this.#items[(this.#head + size) & this.#mask] = value;
    this.#size = size + 1;
    return true;
  }

  /**
   * Removes and returns the oldest value. The value that empties the queue lets its array go, and
   * the next push makes a young one (docs/performance.md, "Young arrays").
   */
  shift(): T | undefined {
    const size = this.#size;
    if (size === 0) return undefined;
    const items = this.#items;
    const head = this.#head;
    const value = items[head];
    this.#size = size - 1;
    if (size === 1) {
      this.#items = NONE;
      this.#head = 0;
      return value;
    }
    items[head] = undefined;
    this.#head = (head + 1) & this.#mask;
    return value;
  }

  /** The oldest value, left in place. */
  peek(): T | undefined {
    return this.#size === 0 ? undefined : this.#items[this.#head];
  }

  /** Removes and returns the newest value. */
  pop(): T | undefined {
    if (this.#size === 0) return undefined;
    const index = (this.#head + this.#size - 1) & this.#mask;
    const value = this.#items[index];
    this.#items[index] = undefined;
    this.#size -= 1;
    return value;
  }

  /** Drops every value (and shrinks back to the initial capacity). */
  clear(): void {
    this.#items = NONE;
    this.#mask = MIN_CAPACITY - 1;
    this.#head = 0;
    this.#size = 0;
  }

  /** A new array: twice as large when full, of the last capacity when it was let go. */
  #grow(): void {
    const items = this.#items;
    const grown = new Array<T | undefined>(items.length === 0 ? this.#mask + 1 : items.length * 2);
    for (let index = 0; index < this.#size; index += 1)
      grown[index] = items[(this.#head + index) & this.#mask];
    this.#items = grown;
    this.#mask = grown.length - 1;
    this.#head = 0;
  }
}
