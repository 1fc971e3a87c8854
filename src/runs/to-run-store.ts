import type { MonoTypeOperatorFunction, Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { currentDemand, subscribeWithDemand, Valve } from '../core/demand.js';
import { SequenceError } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import type { RunStore } from './run-store.js';

/**
 * Publishes a sequenced stream as run `runId` of `store` while passing it through unchanged, so
 * the run can be followed ({@link fromRunStore}), resumed and cancelled from anywhere the store
 * reaches.
 *
 * - **Demand.** The source is paused while the consumer downstream is paused *or* the store's
 *   writer holds its maximum of unacknowledged events (a slow or paused Redis pauses an `exec`
 *   child on its full pipe): memory stays bounded by the writer's bounds.
 * - **End.** The output completes only once the store has acknowledged the final event; a source
 *   error is recorded as the run's failure (followers get it), then forwarded.
 * - **Cancel from anywhere.** A {@link RunStore.cancel} for this run — from this process or
 *   another machine — unsubscribes the source (an `exec` source kills its process group) and
 *   ends the run with the final sentinel `{ kind: 'end', content: null, metadata: { reason },
 *   isFinal: true }`, which is also emitted downstream. Unsubscribing the output does the same with
 *   reason `'cancelled'`, so followers never wait on a run nobody runs.
 * - **Store failure.** If the store refuses or fails (`OWNER_LOST`, `RUN_EXISTS`,
 *   `RUN_STORE_FAILED`) the source is unsubscribed and the output errors with that error.
 *
 * @example
 * ```ts
 * import { exec, MemoryRunStore, toRunStore } from 'sluice';
 * const store = new MemoryRunStore();
 * exec('npm', ['test'], { reject: false })
 *   .pipe(toRunStore(store, 'test-42'))
 *   .subscribe((event) => process.stdout.write(String(event.content)));
 * ```
 */
export function toRunStore<T extends ChunkEvent<unknown>>(
  store: RunStore,
  runId: string,
): MonoTypeOperatorFunction<T> {
  if (typeof store !== 'object' || store === null || typeof store.openWriter !== 'function') {
    throw optionError('store', 'a RunStore', store, 'argument');
  }
  if (typeof runId !== 'string' || runId === '')
    throw optionError('runId', 'a non-empty string', runId, 'argument');
  return operate<T, T>((source, subscriber) => {
    const downstream = currentDemand();
    const writer = store.openWriter(runId);
    const valve = new Valve();
    const update = () => {
      if (downstream?.paused === true || writer.demand.paused) valve.pause();
      else valve.resume();
    };
    const stopDownstream = downstream?.onChange(update);
    const stopWriter = writer.demand.onChange(update);
    update();
    let next = 0;
    let finished = false;
    let sourceError: { error: unknown } | undefined;
    let upstream: Subscription | undefined;
    const stopSource = () => {
      const subscription = upstream;
      upstream = undefined;
      subscription?.unsubscribe();
    };
    const endWith = (reason: string) => {
      stopSource();
      if (finished) return;
      finished = true;
      const sentinel = { sequence: next, kind: 'end', content: null, metadata: { reason }, isFinal: true };
      writer.append(sentinel);
      if (!subscriber.closed) subscriber.next(sentinel as unknown as T);
    };
    const fail = (error: unknown) => {
      if (finished) return;
      finished = true;
      sourceError = { error };
      stopSource();
      writer.fail(error);
    };
    const stopCancel = writer.onCancel((reason) => endWith(reason));
    writer.ended.then(
      () => {
        if (sourceError === undefined) subscriber.complete();
        else subscriber.error(sourceError.error);
      },
      (error: unknown) => {
        finished = true;
        stopSource();
        subscriber.error(error);
      },
    );
    upstream = subscribeWithDemand(valve, () =>
      source.subscribe(
        createOperatorSubscriber<T>(
          subscriber,
          (event) => {
            if (finished) return;
            try {
              writer.append(event);
            } catch (error) {
              fail(error);
              return;
            }
            next = event.sequence + 1;
            if (event.isFinal) finished = true;
            subscriber.next(event);
          },
          () => {
            if (!finished)
              fail(new SequenceError({ rule: 'missing-final', expected: next, received: undefined }));
          },
          (error) => fail(error),
        ),
      ),
    );
    if (finished) stopSource();
    return () => {
      stopDownstream?.();
      stopWriter();
      stopCancel();
      if (!finished) endWith('cancelled');
      stopSource();
      writer.close();
    };
  });
}
