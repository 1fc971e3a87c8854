import type { Observable, OperatorFunction, Subscriber, TeardownLogic } from 'rxjs';
import { OperatorSubscriber } from './subscriber-chain.js';

/**
 * Builds an operator as RxJS 7 does internally (`util/lift.ts`): `init` runs once per subscription
 * with the source and the downstream subscriber; what it throws goes to `error`; the teardown it
 * returns runs once.
 */
export function operate<T, R>(
  init: (source: Observable<T>, subscriber: Subscriber<R>) => TeardownLogic,
): OperatorFunction<T, R> {
  // Lifted from the source, as RxJS does: a subclass of Observable stays one.
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
 * RxJS 7's `OperatorSubscriber`: forwards to `destination` unless a handler is given, sends what a
 * handler throws to `destination.error`, runs `onFinalize` once however it ends. Its
 * `destination` is the subscriber below, so a producer above still finds its consumer's demand.
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
