import type { MonoTypeOperatorFunction, Observable, Subscriber, Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { type Demand, Valve } from '../core/demand.js';
import { finalBeforeComplete, SequenceError } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { demandOf, subscribeWithDemand } from '../core/subscriber-chain.js';
import { toRunFailure } from './run-failure.js';
import { RunOutlet } from './run-outlet.js';
import type { RunStore, RunWriterOptions } from './run-store.js';

/** Options of {@link toRunStore}: the writer's (`label`), and what a failing store does to the run. */
export interface ToRunStoreOptions extends RunWriterOptions {
  /** Called once when the store fails mid-run: the run then goes on without it. */
  readonly onStoreFailure?: (error: unknown) => void;
}

/** The writer options a store's `openWriter` takes besides `label` (`RedisRunStore`: a run's own retention). */
type WriterOptionsOf<S extends RunStore> = NonNullable<Parameters<S['openWriter']>[1]>;

/**
 * Publishes a sequenced stream as run `runId` of `store`, passing it through unchanged, so it can
 * be followed ({@link fromRunStore}) and cancelled from anywhere. The source pauses while the
 * consumer or the writer does. The final event is stored when the source completes (the output
 * completes once stored); an error becomes the run's failure; events after the final one fail
 * (`final-before-complete`). A {@link RunStore.cancel}, or unsubscribing, ends the run with the
 * `end` sentinel (metadata `{ ...details, reason }`). A store failure errors the output, unless
 * `onStoreFailure`: then the run goes on, its final event carrying `metadata.storeFailure`.
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
export function toRunStore<T extends ChunkEvent<unknown>, S extends RunStore = RunStore>(
  store: S,
  runId: string,
  options: ToRunStoreOptions & WriterOptionsOf<S> = {} as WriterOptionsOf<S>,
): MonoTypeOperatorFunction<T> {
  if (typeof store !== 'object' || store === null || typeof store.openWriter !== 'function') {
    throw optionError('store', 'a RunStore', store, 'argument');
  }
  if (typeof runId !== 'string' || runId === '')
    throw optionError('runId', 'a non-empty string', runId, 'argument');
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  const { onStoreFailure, ...writerOptions } = options;
  if (writerOptions.label !== undefined && typeof writerOptions.label !== 'string') {
    throw optionError('label', 'a string', writerOptions.label);
  }
  if (onStoreFailure !== undefined && typeof onStoreFailure !== 'function') {
    throw optionError('onStoreFailure', 'a function', onStoreFailure);
  }
  return publishRun(() => new RunOutlet(store, runId, writerOptions), onStoreFailure);
}

/** {@link toRunStore} into the run `open` opens at subscribe. Internal: `toServerSentEvents` uses it too. */
export function publishRun<T extends ChunkEvent<unknown>>(
  open: () => RunOutlet,
  onStoreFailure?: (error: unknown) => void,
): MonoTypeOperatorFunction<T> {
  return operate<T, T>((source, subscriber) => {
    const publication = new RunPublication<T>(subscriber, open(), onStoreFailure);
    publication.start(source);
    return () => publication.close();
  });
}

/** One subscription of {@link toRunStore}: the source, the run and the output, as steps. */
class RunPublication<T extends ChunkEvent<unknown>> {
  readonly #subscriber: Subscriber<T>;
  readonly #run: RunOutlet;
  readonly #onStoreFailure: ((error: unknown) => void) | undefined;
  readonly #downstream: Demand | undefined;
  readonly #valve = new Valve();
  readonly #stops: (() => void)[] = [];
  #sourceDone = false;
  #sourceError: { error: unknown } | undefined;
  #held: T | undefined;
  #storeFailure: Record<string, unknown> | undefined;
  #upstream: Subscription | undefined;

  constructor(
    subscriber: Subscriber<T>,
    run: RunOutlet,
    onStoreFailure: ((error: unknown) => void) | undefined,
  ) {
    this.#subscriber = subscriber;
    this.#run = run;
    this.#onStoreFailure = onStoreFailure;
    this.#downstream = demandOf(subscriber);
    const update = () => this.#update();
    const stopDownstream = this.#downstream?.onChange(update);
    if (stopDownstream !== undefined) this.#stops.push(stopDownstream);
    this.#stops.push(run.demand.onChange(update));
    this.#stops.push(run.onCancel((reason, details) => this.#endWith(reason, details)));
    update();
    run.stored.then(
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
    if (this.#run.ended) this.#stopSource();
  }

  /** The output was unsubscribed: a run still going ends with `cancelled`. */
  close(): void {
    for (const stop of this.#stops) stop();
    if (this.#storeFailure === undefined) this.#endWith('cancelled');
    this.#stopSource();
    this.#run.close();
  }

  #update(): void {
    const writerPaused = this.#storeFailure === undefined && this.#run.demand.paused;
    if (this.#downstream?.paused === true || writerPaused) this.#valve.pause();
    else this.#valve.resume();
  }

  #event(event: T): void {
    if (this.#storeFailure !== undefined) {
      this.#subscriber.next(event.isFinal ? withStoreFailure(event, this.#storeFailure) : event);
    } else if (this.#run.ended) return;
    else if (this.#held !== undefined) this.#fail(finalBeforeComplete(event.sequence));
    else if (event.isFinal) this.#held = event;
    else this.#publish(event);
  }

  #publish(event: T): void {
    try {
      this.#run.append(event);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#subscriber.next(event);
  }

  #sourceComplete(): void {
    this.#sourceDone = true;
    if (this.#storeFailure !== undefined) this.#subscriber.complete();
    else if (this.#run.ended) return;
    else if (this.#held === undefined) {
      this.#fail(new SequenceError({ rule: 'missing-final', expected: this.#run.next, received: undefined }));
    } else this.#publish(this.#held);
  }

  #stopSource(): void {
    const subscription = this.#upstream;
    this.#upstream = undefined;
    subscription?.unsubscribe();
  }

  #endWith(reason: string, details?: Readonly<Record<string, unknown>>): void {
    this.#stopSource();
    const sentinel = this.#run.end(reason, details);
    if (sentinel !== undefined && !this.#subscriber.closed) this.#subscriber.next(sentinel as unknown as T);
  }

  #fail(error: unknown): void {
    if (this.#run.ended) return;
    this.#sourceError = { error };
    this.#stopSource();
    if (this.#storeFailure === undefined) this.#run.fail(error);
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
    this.#stopSource();
    this.#subscriber.error(error);
  }
}

function withStoreFailure<T extends ChunkEvent<unknown>>(event: T, storeFailure: Record<string, unknown>): T {
  return { ...event, metadata: { ...event.metadata, storeFailure } };
}
