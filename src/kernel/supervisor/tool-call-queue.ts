/**
 * Runs tasks at most `max` at once; the others wait and start in the order they came, each when
 * a running one ends. `clear()` drops the waiting ones (a runner that ended starts no more tools).
 * Internal to `startRunner`.
 *
 * @example
 * ```ts
 * const queue = new ToolCallQueue(8);
 * queue.add(() => dispatchToolCall(call).then(send));
 * ```
 */
export class ToolCallQueue {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  add(task: () => Promise<void>): void {
    const start = () => {
      this.#running += 1;
      void task().then(() => {
        this.#running -= 1;
        this.#waiting.shift()?.();
      });
    };
    if (this.#running < this.max) start();
    else this.#waiting.push(start);
  }

  clear(): void {
    this.#waiting.length = 0;
  }
}
