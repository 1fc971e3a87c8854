import type { Observable, OperatorFunction, Subscriber, TeardownLogic } from 'rxjs';
import { OperatorSubscriber } from './subscriber-chain.js';

/**
 * Builds an operator the way RxJS 7 does internally (`util/lift.ts`), without importing
 * `rxjs/internal/*`: `init` runs once per subscription with the source and the downstream
 * subscriber; whatever it throws goes to `error`; the teardown it returns runs once.
 *
 * @example
 * ```ts
 * const double = operate<number, number>((source, subscriber) => {
 *   source.subscribe(createOperatorSubscriber(subscriber, (n) => subscriber.next(n * 2)));
 * });
 * ```
 */
export function operate<T, R>(
  init: (source: Observable<T>, subscriber: Subscriber<R>) => TeardownLogic,
): OperatorFunction<T, R> {
  // Lifted from the source, as RxJS does: a subclass of Observable whose `lift` returns its own
  // kind stays that kind through the operator.
  return (source) =>
    source.lift<R>({
      call: (subscriber: Subscriber<R>, lifted: Observable<T>) => {
        try {
          return init(lifted, subscriber);
        } catch (error) {
          subscriber.error(error);
          return undefined;
        }
      },
    });
}

/**
 * A subscriber that forwards to `destination` unless a handler is given, catches what the
 * handlers throw (and sends it to `destination.error`), and runs `onFinalize` exactly once,
 * however the subscription ends. The RxJS 7 `OperatorSubscriber`: its `destination` is the
 * subscriber below, so a producer above still finds its consumer's demand (`demandOf`).
 *
 * @example
 * ```ts
 * source.subscribe(createOperatorSubscriber(subscriber, (value) => subscriber.next(value)));
 * ```
 */
export function createOperatorSubscriber<T>(
  destination: Subscriber<any>,
  onNext?: (value: T) => void,
  onComplete?: () => void,
  onError?: (error: unknown) => void,
  onFinalize?: () => void,
): Subscriber<T> {
  return new OperatorSubscriber<T>(destination, onNext, onComplete, onError, onFinalize);
}
