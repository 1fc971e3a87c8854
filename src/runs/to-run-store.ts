import type { MonoTypeOperatorFunction, Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { Valve } from '../core/demand.js';
import { demandOf } from '../core/demand-of.js';
import { SequenceError } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { subscribeWithDemand } from '../core/subscribe-with-demand.js';
import type { CancelDetails, RunStore, RunWriterOptions } from './run-store.js';

/**
 * Publishes a sequenced stream as run `runId` of `store` while passing it through unchanged, so
 * the run can be followed ({@link fromRunStore}), resumed and cancelled from anywhere the store
 * reaches.
 *
 * - **Demand.** The source is paused while the consumer downstream is paused *or* the store's
 *   writer holds its maximum of unacknowledged events (a slow or paused Redis pauses an `exec`
 *   child on its full pipe): memory stays bounded by the writer's bounds.
 * - **End.** The final event is published when the source completes (every sluice source
 *   completes right after it); the output completes only once the store has acknowledged it. A
 *   source error is recorded as the run's failure (followers get it), then forwarded. A source
 *   that goes on after its final event — several runs flattened by `concatMap`/`mergeMap` — is
 *   a failure too, at once: a `SequenceError` (`STREAM_SEQUENCE`, rule `final-before-complete`)
 *   naming the remedy, `joinRuns()`, which makes them one run (docs/protocol.md, "Composed runs").
 * - **Cancel from anywhere.** A {@link RunStore.cancel} for this run — from this process or
 *   another machine — unsubscribes the source (an `exec` source kills its process group) and
 *   ends the run with the final sentinel `{ kind: 'end', content: null, metadata: { ...details,
 *   reason }, isFinal: true }`, which is also emitted downstream. Unsubscribing the output does the
 *   same with reason `'cancelled'`, so followers never wait on a run nobody runs.
 * - **Store failure.** If the store refuses or fails (`OWNER_LOST`, `RUN_EXISTS`,
 *   `RUN_STORE_FAILED`) the source is unsubscribed and the output errors with that error.
 *
 * `options.label` is what viewers show for the run (its command line, say: `RunInfo.label`).
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
  options: RunWriterOptions = {},
): MonoTypeOperatorFunction<T> {
  if (typeof store !== 'object' || store === null || typeof store.openWriter !== 'function') {
    throw optionError('store', 'a RunStore', store, 'argument');
  }
  if (typeof runId !== 'string' || runId === '')
    throw optionError('runId', 'a non-empty string', runId, 'argument');
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['label']);
  if (options.label !== undefined && typeof options.label !== 'string') {
    throw optionError('label', 'a string', options.label);
  }
  const writerOptions = options.label === undefined ? {} : { label: options.label };
  return operate<T, T>((source, subscriber) => {
    const downstream = demandOf(subscriber);
    const writer = store.openWriter(runId, writerOptions);
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
    /** The final event, published when the source completes (not before: it might go on). */
    let held: T | undefined;
    let sourceError: { error: unknown } | undefined;
    let upstream: Subscription | undefined;
    const stopSource = () => {
      const subscription = upstream;
      upstream = undefined;
      subscription?.unsubscribe();
    };
    const endWith = (reason: string, details: CancelDetails = {}) => {
      stopSource();
      if (finished) return;
      finished = true;
      const metadata = { ...details, reason };
      const sentinel = { sequence: next, kind: 'end', content: null, metadata, isFinal: true };
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
    const stopCancel = writer.onCancel((reason, details) => endWith(reason, details));
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
    // The subscriber is the subscription from the start, so that a cancel during a synchronous
    // source's emissions stops it mid-loop.
    const publish = (event: T): void => {
      try {
        writer.append(event);
      } catch (error) {
        fail(error);
        return;
      }
      next = event.sequence + 1;
      if (event.isFinal) finished = true;
      subscriber.next(event);
    };
    const upstreamSubscriber = createOperatorSubscriber<T>(
      subscriber,
      (event) => {
        if (finished) return;
        if (held !== undefined) {
          const rule = 'final-before-complete';
          fail(new SequenceError({ rule, expected: undefined, received: event.sequence }));
        } else if (event.isFinal) held = event;
        else publish(event);
      },
      () => {
        if (finished) return;
        if (held === undefined) {
          fail(new SequenceError({ rule: 'missing-final', expected: next, received: undefined }));
        } else publish(held);
      },
      (error) => fail(error),
    );
    upstream = upstreamSubscriber;
    subscribeWithDemand(source, valve, upstreamSubscriber);
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
