import { asyncScheduler, type SchedulerLike, Subscription } from 'rxjs';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { isSchedulerLike } from '../../core/is-scheduler-like.js';
import { optionError } from '../../core/option-error.js';
import { readFunction } from '../../core/read-function.js';
import { readInteger } from '../../core/read-integer.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';

/**
 * One hostcall completion (a `Success`, an `Error`, or one `StreamChunk`) addressed to an
 * extension. `seq` is the global enqueue order (0, 1, 2, … per scheduler); delivery is in `seq`
 * order. A frame carries the call id only: `extensionId` is the route.
 */
export interface Macrotask<O = unknown> {
  readonly seq: number;
  readonly extensionId: string;
  readonly callId: string;
  readonly outcome: O;
}

/** Options of {@link createMacrotaskScheduler}. */
export interface MacrotaskSchedulerOptions<O> {
  /** The clock of the timers. Default `asyncScheduler`. */
  readonly clock?: SchedulerLike;
  /**
   * What drains the queue: a `SchedulerLike` on which a drain is scheduled whenever work is
   * enqueued, or `'manual'`: nothing drains by itself, the caller calls
   * {@link MacrotaskScheduler.tick} / `runUntilIdle()`. Default: a microtask right after the
   * current job, as `asapScheduler` would schedule it, but without an action object per turn.
   */
  readonly driver?: SchedulerLike | 'manual';
  /** Most macrotasks one driver turn delivers before yielding to the event loop. Default 64. */
  readonly batch?: number;
  readonly deliver?: (task: Macrotask<O>) => void;
}

/** The kernel's macrotask FIFO (see {@link createMacrotaskScheduler}). */
export interface MacrotaskScheduler<O> {
  readonly clock: SchedulerLike;
  /** How many macrotasks wait to be delivered. */
  readonly size: number;
  /** The clock's current time (ms); within a driver turn, the time of the turn's first reading (at most one per turn). */
  now(): number;
  nextSeq(): number;
  /** Appends a macrotask (its `seq` is taken now); `onDelivered` runs right after its delivery. */
  enqueue(extensionId: string, callId: string, outcome: O, onDelivered?: () => void): Macrotask<O>;
  /**
   * Delivers exactly one macrotask, the oldest; returns whether there was one. What the delivery
   * function throws propagates (after `onDelivered`); the macrotask counts as delivered. Without a
   * delivery function it throws a `SluiceError` with code `NO_DELIVERY` and leaves the queue as is.
   */
  tick(): boolean;
  /** Ticks until the queue is empty (including what deliveries enqueue); returns how many were delivered. */
  runUntilIdle(limit?: number): number;
  /** A snapshot of the queue, oldest first. */
  pending(): readonly Macrotask<O>[];
  setDelivery(deliver: (task: Macrotask<O>) => void): void;
  /** Runs `callback` after `delayMs` on the clock. */
  setTimer(delayMs: number, callback: () => void): Subscription;
  /** Cancels pending timers and the driver; queued macrotasks stay queued. */
  dispose(): void;
}

/**
 * Creates the kernel's deterministic macrotask scheduler (docs/protocol.md, "The scheduler"): a
 * plain FIFO that stream chunks and other completions share with no priority. Timers run on
 * `clock`, apart from the queue; with a virtual clock and `driver: 'manual'`, delivery order is a
 * pure function of the inputs. A delivery that throws ends its turn (with the default driver, an
 * unhandled rejection) but never the queue: the next turn is armed first.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * const clock = new TestScheduler(() => {});
 * const scheduler = createMacrotaskScheduler<string>({ clock, driver: 'manual' });
 * scheduler.setDelivery((task) => console.log(task.seq, task.callId, task.outcome));
 * scheduler.enqueue('ext-a', 'hc-42', 'line 1');
 * scheduler.enqueue('ext-a', 'hc-99', 'line 1');
 * scheduler.runUntilIdle(); // 0 hc-42 line 1, then 1 hc-99 line 1
 * ```
 */
export function createMacrotaskScheduler<O = unknown>(
  options: MacrotaskSchedulerOptions<O> = {},
): MacrotaskScheduler<O> {
  rejectUnknownOptions(options, ['clock', 'driver', 'batch', 'deliver']);
  const clock = readOption(options, 'clock', isSchedulerLike, 'a SchedulerLike', asyncScheduler);
  // `undefined`: the default microtask driver.
  const driver = readOption<SchedulerLike | 'manual', undefined>(
    options,
    'driver',
    (value) => value === 'manual' || isSchedulerLike(value),
    "a SchedulerLike or 'manual'",
    undefined,
  );
  const batch = readInteger(options, 'batch', 64, { min: 1 });
  const deliver = readFunction<(task: Macrotask<O>) => void, undefined>(options, 'deliver', undefined);
  return new FifoScheduler(clock, driver, batch, deliver);
}

/** A fresh array whenever the queue empties, made at this one site (docs/performance.md, "Young arrays"). */
function youngTasks<O>(): (Macrotask<O> | undefined)[] {
  return new Array<Macrotask<O> | undefined>(8);
}

/** An empty array whose elements are objects from the start (docs/performance.md, "The scheduler's queue"). */
function objectSlots<T extends object>(): (T | undefined)[] {
  const slots: (T | undefined)[] = [undefined];
  slots.length = 0;
  return slots;
}

const resolved = Promise.resolve();

/** Runs `callback` in a microtask: a reaction on a resolved promise (docs/performance.md, "The scheduler's queue"). */
function queueReaction(callback: () => void): void {
  void resolved.then(callback);
}

/** A task and its hook at one index of two arrays, `head` to `tail` (docs/performance.md, "The scheduler's queue"). */
class FifoScheduler<O> implements MacrotaskScheduler<O> {
  #tasks = youngTasks<O>();
  readonly #hooks = objectSlots<() => void>();
  #head = 0;
  #tail = 0;
  #seq = 0;
  /** A drain turn is scheduled and not cancelled; `#turn` is the driver's action, if any. */
  #armed = false;
  #turn: Subscription | undefined;
  /** The default driver has a microtask queued (dispose cannot take it back: it disarms). */
  #microtaskQueued = false;
  readonly #timers = new Subscription();
  /** The clock, read at most once per driver turn: `#turnNow` holds the reading when `#turnNowSet`. */
  #turnNow = 0;
  #turnNowSet = false;
  #inTurn = false;
  readonly #manual: boolean;
  /** The driver a turn is scheduled on; `undefined`: the default microtask, or none when manual. */
  readonly #driver: SchedulerLike | undefined;

  constructor(
    readonly clock: SchedulerLike,
    driver: SchedulerLike | 'manual' | undefined,
    private readonly batch: number,
    private deliver: ((task: Macrotask<O>) => void) | undefined,
  ) {
    this.#manual = driver === 'manual';
    this.#driver = driver === 'manual' ? undefined : driver;
  }

  get size(): number {
    return this.#tail - this.#head;
  }

  now(): number {
    return this.#turnNowSet === true ? this.#turnNow : this.#readClock();
  }

  nextSeq(): number {
    const next = this.#seq;
    this.#seq += 1;
    return next;
  }

  enqueue(extensionId: string, callId: string, outcome: O, onDelivered?: () => void): Macrotask<O> {
    const task: Macrotask<O> = { seq: this.nextSeq(), extensionId, callId, outcome };
    this.#tasks[this.#tail] = task;
    this.#hooks[this.#tail] = onDelivered;
    this.#tail += 1;
    if (this.#armed !== true) this.#arm();
    return task;
  }

  tick(): boolean {
    if (this.#tail === this.#head) return false;
    if (this.deliver === undefined) {
      throw new SluiceError('NO_DELIVERY', 'The macrotask scheduler has no delivery function');
    }
    this.#deliverUpTo(1);
    return true;
  }

  runUntilIdle(limit = 1_000_000): number {
    // The first through tick(), which checks for a delivery function; the rest in one loop.
    return limit >= 1 && this.tick() ? 1 + this.#deliverUpTo(limit - 1) : 0;
  }

  pending(): readonly Macrotask<O>[] {
    return this.#tasks.slice(this.#head, this.#tail) as Macrotask<O>[];
  }

  setDelivery(next: (task: Macrotask<O>) => void): void {
    if (typeof next !== 'function') throw optionError('deliver', 'a function', next, 'argument');
    this.deliver = next;
    this.#arm();
  }

  setTimer(delayMs: number, callback: () => void): Subscription {
    const timer = this.clock.schedule(() => {
      this.#timers.remove(timer);
      callback();
    }, delayMs);
    this.#timers.add(timer);
    return timer;
  }

  dispose(): void {
    this.#turn?.unsubscribe();
    this.#turn = undefined;
    this.#armed = false;
    this.#timers.unsubscribe();
  }

  /** Reads the clock; within a driver turn, keeps the reading for the rest of the turn. */
  #readClock(): number {
    const now = this.clock.now();
    if (this.#inTurn === true) {
      this.#turnNow = now;
      this.#turnNowSet = true;
    }
    return now;
  }

  /**
   * Delivers up to `max` macrotasks, each followed by its hook, even when it throws; one handler
   * for the loop (docs/performance.md, "Smaller hot functions"). A delivery may call `setDelivery`.
   */
  #deliverUpTo(max: number): number {
    let delivered = 0;
    let hookOnThrow: (() => void) | undefined;
    try {
      while (delivered < max && this.#tail !== this.#head) {
        const head = this.#head;
        const task = this.#tasks[head] as Macrotask<O>;
        const onDelivered = this.#hooks[head];
        this.#tasks[head] = undefined;
        this.#hooks[head] = undefined;
        this.#head = head + 1;
        if (head + 1 === this.#tail) {
          this.#head = 0;
          this.#tail = 0;
          this.#tasks = youngTasks();
        } else if (head >= 1024) this.#compact();
        delivered += 1;
        const deliver = this.deliver as (task: Macrotask<O>) => void;
        hookOnThrow = onDelivered;
        deliver(task);
        hookOnThrow = undefined;
        onDelivered?.();
      }
    } catch (error) {
      hookOnThrow?.();
      throw error;
    }
    return delivered;
  }

  /** Drops the delivered prefix of both arrays once it is most of them. */
  #compact(): void {
    if (this.#head * 2 <= this.#tail) return;
    this.#tasks.splice(0, this.#head);
    this.#hooks.splice(0, this.#head);
    this.#tail -= this.#head;
    this.#head = 0;
  }

  /** Schedules a drain turn if there is work and none is armed. */
  #arm(): void {
    if (this.#manual === true || this.#armed === true || this.#tail === this.#head) return;
    this.#armed = true;
    if (this.#driver !== undefined) this.#turn = this.#driver.schedule(() => this.#drain());
    else if (this.#microtaskQueued !== true) {
      this.#microtaskQueued = true;
      queueReaction(this.#onMicrotask);
    }
  }

  // One function for every turn, not a closure per turn.
  readonly #onMicrotask = (): void => {
    this.#microtaskQueued = false;
    if (this.#armed === true) this.#drain();
  };

  /** One driver turn: up to `batch` deliveries on one reading of the clock. */
  #drain(): void {
    this.#armed = false;
    this.#turn = undefined;
    if (this.deliver === undefined) return; // re-armed by setDelivery
    this.#inTurn = true;
    try {
      this.#deliverUpTo(this.batch);
    } finally {
      this.#inTurn = false;
      this.#turnNowSet = false;
      // Re-arm even when a delivery threw: one failing delivery must not stop the queue.
      this.#arm();
    }
  }
}
