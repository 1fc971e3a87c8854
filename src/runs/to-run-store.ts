import type { MonoTypeOperatorFunction, Observable, Subscriber, Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { type Demand, Valve } from '../core/demand.js';
import { finalBeforeComplete, SequenceError } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { demandOf, subscribeWithDemand } from '../core/subscriber-chain.js';
import { toRunFailure } from './run-failure.js';
import type { CancelDetails, RunStore, RunWriter, RunWriterOptions } from './run-store.js';

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
    const publication = new RunPublication<T>(
      subscriber,
      store.openWriter(runId, writerOptions),
      onStoreFailure,
    );
    publication.start(source);
    return () => publication.close();
  });
}

/** One subscription of {@link toRunStore}: the source, the run's writer and the output, as steps. */
class RunPublication<T extends ChunkEvent<unknown>> {
  readonly #subscriber: Subscriber<T>;
  readonly #writer: RunWriter;
  readonly #onStoreFailure: ((error: unknown) => void) | undefined;
  readonly #downstream: Demand | undefined;
  readonly #valve = new Valve();
  readonly #stops: (() => void)[] = [];
  #next = 0;
  #finished = false;
  #sourceDone = false;
  #sourceError: { error: unknown } | undefined;
  /** The final event, published when the source completes (not before: it might go on). */
  #held: T | undefined;
  /** Set when the store failed and the run goes on without it (`onStoreFailure`). */
  #storeFailure: Record<string, unknown> | undefined;
  #upstream: Subscription | undefined;

  constructor(
    subscriber: Subscriber<T>,
    writer: RunWriter,
    onStoreFailure: ((error: unknown) => void) | undefined,
  ) {
    this.#subscriber = subscriber;
    this.#writer = writer;
    this.#onStoreFailure = onStoreFailure;
    this.#downstream = demandOf(subscriber);
    const update = () => this.#update();
    const stopDownstream = this.#downstream?.onChange(update);
    if (stopDownstream !== undefined) this.#stops.push(stopDownstream);
    this.#stops.push(writer.demand.onChange(update));
    this.#stops.push(writer.onCancel((reason, details) => this.#endWith(reason, details)));
    update();
    writer.ended.then(
      () => {
        if (this.#sourceError === undefined) subscriber.complete();
        else subscriber.error(this.#sourceError.error);
      },
      (error: unknown) => this.#storeFailed(error),
    );
  }

  /** Subscribes the source with the combined demand of the output and the writer. */
  start(source: Observable<T>): void {
    // The subscriber is the subscription from the start, so that a cancel during a synchronous
    // source's emissions stops it mid-loop.
    const upstream = createOperatorSubscriber<T>(
      this.#subscriber,
      (event) => this.#event(event),
      () => this.#sourceComplete(),
      (error) => this.#fail(error),
    );
    this.#upstream = upstream;
    subscribeWithDemand(source, this.#valve, upstream);
    if (this.#finished) this.#stopSource();
  }

  /** The output was unsubscribed: a run still going ends with `cancelled`. */
  close(): void {
    for (const stop of this.#stops) stop();
    if (!this.#finished && this.#storeFailure === undefined) this.#endWith('cancelled');
    this.#stopSource();
    this.#writer.close();
  }

  #update(): void {
    const writerPaused = this.#storeFailure === undefined && this.#writer.demand.paused;
    if (this.#downstream?.paused === true || writerPaused) this.#valve.pause();
    else this.#valve.resume();
  }

  #event(event: T): void {
    const subscriber = this.#subscriber;
    if (this.#storeFailure !== undefined) {
      subscriber.next(event.isFinal ? withStoreFailure(event, this.#storeFailure) : event);
      return;
    }
    if (this.#finished) return;
    if (this.#held !== undefined) {
      this.#fail(finalBeforeComplete(event.sequence));
    } else if (event.isFinal) this.#held = event;
    else this.#publish(event);
  }

  #publish(event: T): void {
    try {
      this.#writer.append(event);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#next = event.sequence + 1;
    if (event.isFinal) this.#finished = true;
    this.#subscriber.next(event);
  }

  #sourceComplete(): void {
    this.#sourceDone = true;
    if (this.#storeFailure !== undefined) this.#subscriber.complete();
    else if (this.#finished) return;
    else if (this.#held === undefined) {
      this.#fail(new SequenceError({ rule: 'missing-final', expected: this.#next, received: undefined }));
    } else this.#publish(this.#held);
  }

  #stopSource(): void {
    const subscription = this.#upstream;
    this.#upstream = undefined;
    subscription?.unsubscribe();
  }

  #endWith(reason: string, details: CancelDetails = {}): void {
    this.#stopSource();
    if (this.#finished) return;
    this.#finished = true;
    const metadata = { ...details, reason };
    const sentinel = { sequence: this.#next, kind: 'end', content: null, metadata, isFinal: true };
    this.#writer.append(sentinel);
    if (!this.#subscriber.closed) this.#subscriber.next(sentinel as unknown as T);
  }

  #fail(error: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#sourceError = { error };
    this.#stopSource();
    if (this.#storeFailure === undefined) this.#writer.fail(error);
    else this.#subscriber.error(error);
  }

  /** The store failed: the output errors — or, with `onStoreFailure`, the run goes on without it. */
  #storeFailed(error: unknown): void {
    if (this.#onStoreFailure !== undefined && this.#sourceError === undefined) {
      this.#storeFailure = { ...toRunFailure(error) };
      this.#update();
      this.#onStoreFailure(error);
      if (this.#sourceDone) this.#subscriber.complete();
      return;
    }
    this.#finished = true;
    this.#stopSource();
    this.#subscriber.error(error);
  }
}

/** Options of {@link toRunStore}: the writer's (`label`), and what a failing store does to the run. */
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
