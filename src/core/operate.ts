import { Observable, type OperatorFunction, type Subscriber, type TeardownLogic } from 'rxjs';
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
  return (source) =>
    new Observable<R>((subscriber) => {
      try {
        return init(source, subscriber);
      } catch (error) {
        subscriber.error(error);
        return undefined;
      }
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
