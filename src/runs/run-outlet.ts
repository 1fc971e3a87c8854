import type { ChunkEvent } from '../core/chunk.js';
import type { Demand } from '../core/demand.js';
import type { CancelDetails, RunStore, RunWriter, RunWriterOptions } from './run-store.js';

/**
 * The one writer of a run's records, under every sink: opens the store's {@link RunWriter}, keeps
 * the next sequence, ends the run once (final event, failure, or the `end` sentinel) and closes
 * the writer once the store settled the end.
 */
export class RunOutlet {
  readonly runId: string;
  /** Settles once the run's end is stored; rejects as {@link RunWriter.ended} (the store failed or refused). */
  readonly stored: Promise<void>;
  readonly #writer: RunWriter;
  #next = 0;
  #ended = false;
  #tail: Promise<unknown> = Promise.resolve();

  /** Options other than `label` go to the store's `openWriter` (`RedisRunStore`: the run's own retention). */
  constructor(store: RunStore, runId: string, options: RunWriterOptions = {}) {
    this.runId = runId;
    this.#writer = store.openWriter(runId, options);
    this.stored = this.#writer.ended;
    const close = () => this.#writer.close();
    this.stored.then(close, () => {
      this.#ended = true; // nothing more can be kept
      close();
    });
  }

  /** Paused while the store's writer holds its maximum of unacknowledged events. */
  get demand(): Demand {
    return this.#writer.demand;
  }

  /** The sequence of the next event. */
  get next(): number {
    return this.#next;
  }

  /** Whether the run has ended (final event, failure, or a store that failed): nothing more is kept. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Appends `event` (its sequence must be {@link next}). Throws what the store throws. */
  append(event: ChunkEvent<unknown>): void {
    this.#writer.append(event);
    this.#next = event.sequence + 1;
    if (event.isFinal) this.#ended = true;
  }

  /** Appends the next event of `kind`; returns its sequence. Throws what the store throws. */
  add(kind: string, content: unknown, isFinal = false): number {
    const sequence = this.#next;
    this.append({ sequence, kind, content, isFinal });
    return sequence;
  }

  /** {@link add}, in call order, once the writer's demand flows; the sequence, `undefined` once ended. */
  paced(kind: string, content: unknown, isFinal = false): Promise<number | undefined> {
    const added = this.#tail.then(async () => {
      await whenFlowing(this.#writer.demand);
      return this.#ended ? undefined : this.add(kind, content, isFinal);
    });
    this.#tail = added.catch(() => {});
    return added;
  }

  /** Ends the run with the `end` sentinel, once; returns it (`undefined` when the run had ended). */
  end(reason: string, details: CancelDetails = {}): ChunkEvent<null> | undefined {
    if (this.#ended) return undefined;
    const metadata = { ...details, reason };
    const sentinel = { sequence: this.#next, kind: 'end', content: null, metadata, isFinal: true };
    try {
      this.append(sentinel);
    } catch {
      this.#ended = true; // the store failed already: `stored` has settled
    }
    return sentinel;
  }

  /** Ends the run with a failure (after the events so far), once. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#writer.fail(error);
  }

  /** See {@link RunWriter.onCancel}: a cancel for this run, from any instance sharing the store. */
  onCancel(listener: (reason: string, details: CancelDetails) => void): () => void {
    return this.#writer.onCancel(listener);
  }

  /** Stops the writer's heartbeats and listeners (done by itself once the end is stored). */
  close(): void {
    this.#writer.close();
  }
}

function whenFlowing(demand: Demand): Promise<void> {
  if (!demand.paused) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = demand.onChange((paused) => {
      if (paused) return;
      stop();
      resolve();
    });
  });
}
