import type { MonoTypeOperatorFunction, Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { Valve } from '../core/demand.js';
import { demandOf } from '../core/demand-of.js';
import { SequenceError } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { subscribeDemanding } from '../core/subscribe-demanding.js';
import { toRunFailure } from './run-failure.js';
import type { CancelDetails, RunStore, RunWriterOptions } from './run-store.js';

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
 *   ends the run with the final sentinel `{ kind: 'end', content: null, metadata: { ...details,
 *   reason }, isFinal: true }`, which is also emitted downstream. Unsubscribing the output does the
 *   same with reason `'cancelled'`, so followers never wait on a run nobody runs.
 * - **Store failure.** If the store refuses or fails (`OWNER_LOST`, `RUN_EXISTS`,
 *   `RUN_STORE_FAILED`) the source is unsubscribed and the output errors with that error —
 *   unless `options.onStoreFailure` is given: then the run goes on without the store (the
 *   source is not stopped, its events pass through to the end), `onStoreFailure(error)` is
 *   called once, and the final event passed downstream carries the failure as
 *   `metadata.storeFailure` (`{ code, name, message }`). Followers of the run get the store's
 *   verdict instead (`RUN_STORE_FAILED`, or `OWNER_LOST` once the lease expires).
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
  options: ToRunStoreOptions = {},
): MonoTypeOperatorFunction<T> {
  if (typeof store !== 'object' || store === null || typeof store.openWriter !== 'function') {
    throw optionError('store', 'a RunStore', store, 'argument');
  }
  if (typeof runId !== 'string' || runId === '')
    throw optionError('runId', 'a non-empty string', runId, 'argument');
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['label', 'onStoreFailure']);
  if (options.label !== undefined && typeof options.label !== 'string') {
    throw optionError('label', 'a string', options.label);
  }
  const { onStoreFailure } = options;
  if (onStoreFailure !== undefined && typeof onStoreFailure !== 'function') {
    throw optionError('onStoreFailure', 'a function', onStoreFailure);
  }
  const writerOptions = options.label === undefined ? {} : { label: options.label };
  return operate<T, T>((source, subscriber) => {
    const downstream = demandOf(subscriber);
    const writer = store.openWriter(runId, writerOptions);
    const valve = new Valve();
    // Set when the store failed and the run goes on without it (onStoreFailure).
    let storeFailure: Record<string, unknown> | undefined;
    let sourceDone = false;
    const update = () => {
      if (downstream?.paused === true || (storeFailure === undefined && writer.demand.paused)) valve.pause();
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
      if (storeFailure === undefined) writer.fail(error);
      else subscriber.error(error);
    };
    const stopCancel = writer.onCancel((reason, details) => endWith(reason, details));
    writer.ended.then(
      () => {
        if (sourceError === undefined) subscriber.complete();
        else subscriber.error(sourceError.error);
      },
      (error: unknown) => {
        if (onStoreFailure !== undefined && sourceError === undefined) {
          storeFailure = { ...toRunFailure(error) };
          update();
          onStoreFailure(error);
          if (sourceDone) subscriber.complete();
          return;
        }
        finished = true;
        stopSource();
        subscriber.error(error);
      },
    );
    // The subscriber is the subscription from the start, so that a cancel during a synchronous
    // source's emissions stops it mid-loop.
    const upstreamSubscriber = createOperatorSubscriber<T>(
      subscriber,
      (event) => {
        if (storeFailure !== undefined) {
          subscriber.next(event.isFinal ? withStoreFailure(event, storeFailure) : event);
          return;
        }
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
        sourceDone = true;
        if (storeFailure !== undefined) subscriber.complete();
        else if (!finished)
          fail(new SequenceError({ rule: 'missing-final', expected: next, received: undefined }));
      },
      (error) => fail(error),
    );
    upstream = upstreamSubscriber;
    subscribeDemanding(source, valve, upstreamSubscriber);
    if (finished) stopSource();
    return () => {
      stopDownstream?.();
      stopWriter();
      stopCancel();
      if (!finished && storeFailure === undefined) endWith('cancelled');
      stopSource();
      writer.close();
    };
  });
}

/**
 * Options of {@link toRunStore}: the writer's (`label`), and what a failing store does to the run.
 *
 * @example
 * ```ts
 * import type { ToRunStoreOptions } from 'sluice';
 * const options: ToRunStoreOptions = { label: 'make', onStoreFailure: (error) => console.error(error) };
 * ```
 */
export interface ToRunStoreOptions extends RunWriterOptions {
  /**
   * Called once when the store fails mid-run; the run then goes on without it (its events pass
   * through, the final one with `metadata.storeFailure`). Without it, a store failure stops the
   * source and errors the output.
   */
  readonly onStoreFailure?: (error: unknown) => void;
}

function withStoreFailure<T extends ChunkEvent<unknown>>(event: T, storeFailure: Record<string, unknown>): T {
  return { ...event, metadata: { ...event.metadata, storeFailure } };
}
