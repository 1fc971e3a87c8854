import {
  asyncScheduler,
  identity,
  type Observable,
  type OperatorFunction,
  type SchedulerLike,
  type Subscriber,
} from 'rxjs';
import type { ChunkEvent, EndSentinel } from '../core/chunk.js';
import type { Demand } from '../core/demand.js';
import { finalBeforeComplete } from '../core/errors/sequence-error.js';
import { isSchedulerLike } from '../core/is-scheduler-like.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { readFunction } from '../core/read-function.js';
import { readInteger } from '../core/read-integer.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { StallClock } from '../core/stall-clock.js';
import { demandOf, markStalled } from '../core/subscriber-chain.js';

/** What {@link stallTimeout} knows when a stream stalls; given to the logger and to `onStall`. */
export interface StallTimeoutInfo {
  /** The configured stall timeout, in milliseconds. */
  readonly ms: number;
  /** The sequence of the last event that passed, `undefined` if none did. */
  readonly lastSequence: number | undefined;
  /** `scheduler.now()` when the stall clock last started: the consumer's pause, or its last progress since. */
  readonly pausedAt: number;
}

/** Where {@link stallTimeout} reports a stall. */
export interface StallTimeoutLogger {
  /** Called once per stall with `Stream stalled: consumer did not pull for <s>s` and the details. */
  warn(message: string, info: StallTimeoutInfo): void;
}

/** Options of {@link stallTimeout}, checked when it is called. */
export interface StallTimeoutConfig {
  /** How long the consumer may stay paused, in ms. A non-negative integer up to 2147483647; `0` disables. Default `30000`. */
  readonly ms?: number;
  /** The clock. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Gets one warning per stall. Default: `console.warn(message)`. */
  readonly logger?: StallTimeoutLogger;
  /** Called once per stall, after the logger. */
  readonly onStall?: (info: StallTimeoutInfo) => void;
}

const consoleLogger: StallTimeoutLogger = { warn: (message) => console.warn(message) };

/**
 * Stall detection (docs/protocol.md, "Stall") as an operator: the clock starts when the
 * consumer's demand pauses and starts over on any progress (a resume, or a value taken while
 * paused). Without a demand below it is a pass-through; `ms: 0` disables it. Demand passes
 * through, so after a `bounded()` it watches the consumer, before one the buffer.
 *
 * After `ms` of pause it unsubscribes the source (cancelling the producer), warns through
 * `logger` (`Stream stalled: consumer did not pull for 30s`), calls `onStall`, emits the final
 * sentinel `{ kind: 'end', content: null, metadata: { reason: 'stalled' } }` and completes; if
 * the logger or `onStall` throws, the output errors with that. An event after the final one fails
 * with a `SequenceError` (`final-before-complete`). Time only flows through `scheduler`.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice/sources';
 * import { stallTimeout } from 'sluice/operators';
 * import { toAsyncIterable } from 'sluice/adapters';
 * const events = exec('yes').pipe(stallTimeout({ ms: 5_000 }));
 * for await (const event of toAsyncIterable(events)) {
 *   if (event.metadata?.reason === 'stalled') console.log('gave up on a stuck consumer');
 * }
 * ```
 */
export function stallTimeout<E extends ChunkEvent<unknown>>(
  config: StallTimeoutConfig = {},
): OperatorFunction<E, E | EndSentinel> {
  const settings = readStallConfig(config);
  if (settings.ms === 0) return identity;
  return operate((source, subscriber) => {
    const down = demandOf(subscriber);
    if (down === undefined) {
      source.subscribe(createOperatorSubscriber(subscriber));
      return undefined;
    }
    return new StallWatch<E>(settings, subscriber, down).watch(source);
  });
}

type StallSettings = ReturnType<typeof readStallConfig>;

/** One subscription of {@link stallTimeout}. */
class StallWatch<E extends ChunkEvent<unknown>> {
  #lastSequence: number | undefined;
  #finished = false;
  readonly #clock: StallClock;
  #upstream: Subscriber<E> | undefined;
  #stopListening: () => void = () => {};

  constructor(
    private readonly settings: StallSettings,
    private readonly subscriber: Subscriber<E | EndSentinel>,
    private readonly down: Demand,
  ) {
    this.#clock = StallClock.on(settings.scheduler, settings.ms, () => this.#stall(this.#clock.since));
  }

  /** Subscribes to `source` and listens to the demand below; returns the teardown. */
  watch(source: Observable<E>): () => void {
    this.#upstream = createOperatorSubscriber<E>(this.subscriber, (event) => this.#pass(event));
    this.#stopListening = this.#listen();
    if (this.down.paused) this.#arm();
    source.subscribe(this.#upstream);
    return () => {
      this.#stopListening();
      this.#clock.dispose();
    };
  }

  #listen(): () => void {
    const stopChange = this.down.onChange((paused) => (paused ? this.#arm() : this.#clock.stop()));
    const stopProgress = this.down.onProgress?.(() => this.#clock.restart());
    return () => {
      stopChange();
      stopProgress?.();
    };
  }

  #pass(event: E): void {
    if (this.#finished) {
      // The source went on after its final event (several runs in one stream): not one run.
      this.subscriber.error(finalBeforeComplete(event.sequence));
      return;
    }
    this.#lastSequence = event.sequence;
    if (event.isFinal) {
      this.#finished = true;
      this.#clock.dispose();
    }
    this.subscriber.next(event);
  }

  #arm(): void {
    if (!this.#finished) this.#clock.start();
  }

  #stall(pausedAt: number): void {
    const { ms, logger, onStall } = this.settings;
    this.#finished = true;
    // The producer's span ends with `stall`, not `cancel` (docs/tracing.md).
    if (this.#upstream !== undefined) markStalled(this.#upstream, ms);
    this.#upstream?.unsubscribe();
    this.#stopListening();
    const info: StallTimeoutInfo = { ms, lastSequence: this.#lastSequence, pausedAt };
    try {
      logger.warn(`Stream stalled: consumer did not pull for ${ms / 1000}s`, info);
      onStall?.(info);
    } catch (error) {
      this.subscriber.error(error);
      return;
    }
    const sequence = this.#lastSequence === undefined ? 0 : this.#lastSequence + 1;
    this.subscriber.next({
      sequence,
      kind: 'end',
      content: null,
      metadata: { reason: 'stalled' },
      isFinal: true,
    });
    this.subscriber.complete();
  }
}

/** The config, checked and defaulted (before subscribe). */
function readStallConfig(config: StallTimeoutConfig) {
  if (typeof config !== 'object' || config === null) throw optionError(undefined, 'an object', config);
  rejectUnknownOptions(config, ['ms', 'scheduler', 'logger', 'onStall']);
  const ms = readInteger(config, 'ms', 30_000, { max: MAX_DELAY_MS });
  const scheduler = readOption(config, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler);
  const { logger = consoleLogger } = config;
  if (typeof logger?.warn !== 'function')
    throw optionError('logger', 'an object with a `warn` method', logger);
  const onStall = readFunction<(info: StallTimeoutInfo) => void, undefined>(config, 'onStall', undefined);
  return { ms, scheduler, logger, onStall };
}
