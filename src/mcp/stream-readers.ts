import type { Demand } from '../core/demand.js';

/**
 * The live readers of one MCP call's event stream here (the `POST`'s response, a reconnect) as
 * demands. The call awaits {@link StreamReaders.whenReady} before each progress notification, so
 * a slow client pauses the tool through the progress pump. A closed reader is ready (the store
 * keeps the stream for its return). Internal to `sluice/mcp`.
 */
export class StreamReaders {
  readonly #readers = new Set<Demand>();
  readonly #waiting = new Set<() => void>();
  #closed = false;

  /** Adds a reader; returns a function that removes it (its connection ended). */
  add(reader: Demand): () => void {
    this.#readers.add(reader);
    return () => {
      this.#readers.delete(reader);
      this.#wake();
    };
  }

  /** Resolves at once when no reader is paused (or after {@link close}), else when they have room. */
  async whenReady(): Promise<void> {
    for (;;) {
      const paused = this.#closed ? undefined : [...this.#readers].find((reader) => reader.paused);
      if (paused === undefined) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          stop();
          this.#waiting.delete(done);
          resolve();
        };
        const stop = paused.onChange((now) => {
          if (!now) done();
        });
        this.#waiting.add(done);
      });
    }
  }

  /** The call ended: nothing waits for a reader any more. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /** Lets every waiter look again. */
  #wake(): void {
    for (const done of [...this.#waiting]) done();
  }
}
