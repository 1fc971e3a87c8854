import type { OperatorFunction } from 'rxjs';
import type { ChunkEvent, EndSentinel } from '../core/chunk.js';
import { BufferOverflowError } from '../core/errors/buffer-overflow-error.js';
import { finalBeforeComplete } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { DemandQueue, type QueueStore } from '../core/queue/demand-queue.js';
import { DemandGate } from '../core/queue/queue-outlet.js';
import { RingQueue } from '../core/queue/ring-queue.js';
import { demandOf, subscribeWithDemand } from '../core/subscriber-chain.js';

/**
 * What {@link bounded} does when `bufferSize` events wait for a paused consumer (Effect's names):
 *
 * - `suspend` — pause the producer through its demand (backpressure; nothing is lost);
 * - `dropping` — drop the newest event (the one arriving);
 * - `sliding` — drop the oldest waiting event;
 * - `error` — fail with a `BufferOverflowError` (code `BUFFER_OVERFLOW`).
 */
export type BoundedStrategy = 'suspend' | 'dropping' | 'sliding' | 'error';

/**
 * The operator behind {@link bounded} and `share({ governor: 'fastest' })`'s per-consumer bound,
 * with checked arguments. The source's demand: the queue's valve (`suspend`), none (the other
 * strategies) or, with `passDemand`, the consumer's own (a group of consumers still pauses it).
 */
export function boundedChannel<E extends ChunkEvent<unknown>>(
  bufferSize: number,
  strategy: BoundedStrategy,
  passDemand: boolean,
): OperatorFunction<E, E | EndSentinel> {
  return operate((source, subscriber) => {
    const down = demandOf(subscriber);
    let finished = false;
    if (down === undefined) {
      source.subscribe(
        createOperatorSubscriber<E>(subscriber, (event) => {
          if (finished) subscriber.error(finalBeforeComplete(event.sequence));
          else {
            finished = event.isFinal;
            subscriber.next(event);
          }
        }),
      );
      return undefined;
    }
    const store = new BoundedQueue<E>(bufferSize, strategy);
    const queue = new DemandQueue<E | EndSentinel>(
      {
        store,
        highWater: strategy === 'suspend' ? bufferSize : Number.POSITIVE_INFINITY,
        lowWater: bufferSize - 1,
        deliver: (event) => subscriber.next(event),
        finish: (ending) => (ending.error ? subscriber.error(ending.reason) : subscriber.complete()),
      },
      new DemandGate(down),
    );
    const upstream = createOperatorSubscriber<E>(
      subscriber,
      (event) => {
        if (finished) {
          // Several runs in one stream: the error follows what is queued, the rest is cancelled.
          upstream.unsubscribe();
          queue.end({ error: true, reason: finalBeforeComplete(event.sequence) });
          return;
        }
        finished = event.isFinal;
        if (!queue.push(event)) {
          upstream.unsubscribe();
          queue.end({ error: true, reason: new BufferOverflowError({ bufferSize }) });
        }
      },
      () => {
        store.end();
        queue.end({ error: false });
      },
      (reason) => queue.end({ error: true, reason }),
    );
    const demand = passDemand ? down : strategy === 'suspend' ? queue.producerValve : null;
    subscribeWithDemand(source, demand, upstream);
    return () => queue.close();
  });
}

/** An event, the events dropped right before it, and the `metadata.dropped` those carried. */
interface Entry<E> {
  readonly event: E | EndSentinel;
  dropped: number;
  inherited: number;
}

/**
 * The FIFO behind {@link bounded}: applies the strategy, never drops the final event, attaches
 * each drop count to the event after the gap, and re-stamps sequences on the way out.
 */
export class BoundedQueue<E extends ChunkEvent<unknown>> implements QueueStore<E | EndSentinel> {
  readonly #items = new RingQueue<Entry<E>>();
  /** Drops not yet attached to an event (`dropping`: the newest were dropped). */
  #carry = 0;
  #carryInherited = 0;
  /** Drops attached to the events already taken. */
  #taken = 0;
  #lastSequence = -1;

  constructor(
    readonly bufferSize: number,
    readonly strategy: BoundedStrategy,
  ) {}

  get size(): number {
    return this.#items.size;
  }

  /** Queues `event`, dropping one if the strategy says so; `false` means overflow (`error`). */
  push(event: E | EndSentinel): boolean {
    this.#lastSequence = event.sequence;
    const entry: Entry<E> = { event, dropped: this.#carry, inherited: this.#carryInherited };
    const fits = this.size < this.bufferSize || this.strategy === 'suspend';
    if (fits || (this.strategy === 'error' && event.isFinal)) return this.#push(entry);
    if (this.strategy === 'error') return false;
    if (this.strategy === 'dropping' && !event.isFinal) {
      this.#carry += 1;
      this.#carryInherited += event.metadata?.dropped ?? 0;
      return true;
    }
    if (this.strategy === 'dropping') {
      // The final event always gets in: the newest waiting event makes room.
      moveDrops(this.#items.pop() as Entry<E>, entry);
      return this.#push(entry);
    }
    const oldest = this.#items.shift() as Entry<E>;
    moveDrops(oldest, this.#items.peek() ?? entry);
    return this.#push(entry);
  }

  /** Reports drops that no later event can carry: queues a final `end` sentinel carrying them. */
  end(): void {
    if (this.#carry === 0) return;
    const sentinel: EndSentinel = {
      sequence: this.#lastSequence + 1,
      kind: 'end',
      content: null,
      isFinal: true,
    };
    this.#push({ event: sentinel, dropped: this.#carry, inherited: this.#carryInherited });
  }

  /** The oldest waiting event, re-stamped. */
  shift(): E | EndSentinel | undefined {
    if (this.size === 0) return undefined;
    const { event, dropped, inherited } = this.#items.shift() as Entry<E>;
    this.#taken += dropped;
    if (this.#taken === 0) return event;
    const sequence = event.sequence - this.#taken;
    if (dropped === 0) return { ...event, sequence };
    const metadata = { ...event.metadata, dropped: (event.metadata?.dropped ?? 0) + dropped + inherited };
    return { ...event, sequence, metadata };
  }

  clear(): void {
    this.#items.clear();
  }

  #push(entry: Entry<E>): true {
    this.#carry = 0;
    this.#carryInherited = 0;
    this.#items.push(entry);
    return true;
  }
}

/** `dropped` is removed from the queue: the event right after it in sequence order reports it. */
function moveDrops<E extends ChunkEvent<unknown>>(dropped: Entry<E>, following: Entry<E>): void {
  following.dropped += dropped.dropped + 1;
  following.inherited += dropped.inherited + (dropped.event.metadata?.dropped ?? 0);
}
