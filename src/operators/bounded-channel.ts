import type { OperatorFunction } from 'rxjs';
import type { ChunkEvent, EndSentinel } from '../core/chunk.js';
import { BufferOverflowError } from '../core/errors/buffer-overflow-error.js';
import { finalBeforeComplete } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { DemandQueue } from '../core/queue/demand-queue.js';
import { DemandGate } from '../core/queue/queue-outlet.js';
import { demandOf, subscribeWithDemand } from '../core/subscriber-chain.js';
import { BoundedQueue } from './bounded-queue.js';
import type { BoundedStrategy } from './bounded-strategy.js';

/**
 * The operator behind {@link bounded} (and the per-consumer bound of `share({ governor:
 * 'fastest' })`), with checked arguments: a {@link DemandQueue} gated by the consumer's demand ({@link DemandGate}),
 * stored in a {@link BoundedQueue} that applies `strategy`. What the source sees as its demand:
 * this operator's own valve (`suspend`), none at all (`dropping`, `sliding`, `error`) — or, with
 * `passDemand`, the consumer's own demand, so a group of consumers can still pause the producer
 * while each applies its strategy to what it cannot take. Internal to `src/operators`.
 *
 * @example
 * ```ts
 * const perConsumer = boundedChannel<ChunkEvent<string>>(256, 'sliding', true);
 * ```
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
    const demand = passDemand ? down : strategy === 'suspend' ? queue.upstream : null;
    subscribeWithDemand(source, demand, upstream);
    return () => queue.close();
  });
}
