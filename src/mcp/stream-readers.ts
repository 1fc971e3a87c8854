import type { Demand } from '../core/demand.js';

/**
 * The live readers of one MCP call's event stream on this instance — the `POST`'s own response,
 * and a reconnect (`GET` with `Last-Event-ID`) served here — as demands: a reader is paused
 * while its socket is full. {@link StreamReaders.whenReady} is what the call awaits before it
 * sends the next progress notification, so a client that reads slowly holds the notification
 * back, the progress pump's text piles up to its high-water mark, and the tool's demand pauses
 * (the Exec tool's child blocks on its pipe): memory stays bounded by the buffers, not the output.
 * A reader whose connection closed is ready (the call never waits for a client that left; the
 * store keeps the stream for its return). Internal to `sluice/mcp`.
 *
 * @example
 * ```ts
 * const readers = new StreamReaders();
 * readers.add(responseDemand(res));
 * await readers.whenReady(); // before transport.send(progress)
 * ```
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
