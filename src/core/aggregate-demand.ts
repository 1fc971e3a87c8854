import type { Demand } from './demand.js';

/**
 * Who sets the pace when several consumers read one producer: `'slowest'` (the producer pauses
 * while any consumer is paused — lossless) or `'fastest'` (it pauses only while every consumer is
 * paused; a slower one needs a bound of its own).
 */
export type Governor = 'slowest' | 'fastest';

interface Member {
  readonly demand: Demand | undefined;
  paused: boolean;
  readonly stop: () => void;
}

/**
 * The demand of a group of consumers that read one producer (the subscribers of a `Subject`, of
 * `share()`, of `connectable()`), combined by a {@link Governor}. Its members are read from
 * `members()` (a live list) each time its state is asked for and whenever a member's demand
 * changes; a member's demand is found once, by `resolve`, and followed until the member
 * unsubscribes. A member with no demand (a plain `subscribe()`) never pauses. With no member it
 * flows.
 *
 * Reading `paused` never calls a listener. It picks up members that joined since the last read
 * (O(1) while the membership is unchanged, so a producer may read it for every value) and counts
 * the state it returns as told: a producer that stopped on `paused` is sure to hear the resume.
 * Whoever adds a member and has a producer waiting on a change (sluice's `share()`, as a consumer
 * subscribes) calls {@link AggregateDemand.refresh} to tell the listeners at once.
 *
 * @example
 * ```ts
 * const demand = new AggregateDemand(() => subject.observers, 'slowest', demandOf);
 * demand.onChange((paused) => (paused ? pipe.pause() : pipe.resume()));
 * subject.subscribe(consumer);
 * demand.refresh(); // a consumer that joined paused pauses the pipe now
 * ```
 */
export class AggregateDemand implements Demand {
  readonly #members: () => readonly unknown[];
  readonly #governor: Governor;
  readonly #resolve: (member: unknown) => Demand | undefined;
  readonly #known = new Map<unknown, Member>();
  #pausedCount = 0;
  /** The state the listeners were last told. */
  #notified = false;
  #notifying = false;
  #dirty = false;
  #listeners: ReadonlyArray<(paused: boolean) => void> = [];
  #progressListeners: ReadonlyArray<() => void> = [];

  constructor(
    members: () => readonly unknown[],
    governor: Governor,
    resolve: (member: unknown) => Demand | undefined,
  ) {
    this.#members = members;
    this.#governor = governor;
    this.#resolve = resolve;
  }

  get paused(): boolean {
    this.#syncIfNeeded();
    const paused = this.#compute();
    if (!this.#notifying) this.#notified = paused;
    return paused;
  }

  /**
   * Picks up the members that joined since the state was last asked for, and tells the listeners
   * if that changed the state (a member that joined paused, or, with `'fastest'`, a flowing one
   * while every other was paused).
   */
  refresh(): void {
    this.#syncIfNeeded();
    if (this.#compute() !== this.#notified) this.#changed();
  }

  onChange(listener: (paused: boolean) => void): () => void {
    this.#syncIfNeeded();
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((other) => other !== listener);
    };
  }

  onProgress(listener: () => void): () => void {
    this.#progressListeners = [...this.#progressListeners, listener];
    return () => {
      this.#progressListeners = this.#progressListeners.filter((other) => other !== listener);
    };
  }

  #compute(): boolean {
    if (this.#governor === 'slowest') return this.#pausedCount > 0;
    return this.#known.size > 0 && this.#pausedCount === this.#known.size;
  }

  #syncIfNeeded(): void {
    // A member that leaves is forgotten by its own teardown (see #track), so a change of
    // membership always shows as a change of size here.
    const members = this.#members();
    if (members.length !== this.#known.size) this.#sync(members);
  }

  /**
   * Tells the listeners about a change of state. A listener may pause or resume members while it
   * is told (a producer pumping values into a consumer that fills up): `paused` is always
   * computed afresh, and a change made meanwhile is told once the current notification is over.
   */
  #changed(): void {
    if (this.#notifying) {
      this.#dirty = true;
      return;
    }
    this.#notifying = true;
    try {
      do {
        this.#dirty = false;
        this.#syncIfNeeded();
        const paused = this.#compute();
        if (paused === this.#notified) continue;
        this.#notified = paused;
        const listeners = this.#listeners;
        for (let index = 0; index < listeners.length; index += 1) listeners[index]?.(paused);
      } while (this.#dirty);
    } finally {
      this.#notifying = false;
    }
  }

  #sync(members: readonly unknown[]): void {
    const current = new Set(members);
    for (const [member, entry] of this.#known) if (!current.has(member)) this.#forget(member, entry);
    for (const member of members) if (!this.#known.has(member)) this.#track(member);
  }

  #track(member: unknown): void {
    const demand = this.#resolve(member);
    const entry: Member = {
      demand,
      paused: demand?.paused === true,
      stop: () => {},
    };
    if (entry.paused) this.#pausedCount += 1;
    this.#known.set(member, entry);
    if (demand === undefined) return;
    // The member's state is read, not taken from the notification: a notification may be older
    // than the state (the member paused again while its resume was still being told).
    const stopChange = demand.onChange(() => {
      const paused = demand.paused;
      if (paused === entry.paused || this.#known.get(member) !== entry) return;
      entry.paused = paused;
      this.#pausedCount += paused ? 1 : -1;
      this.#changed();
    });
    const stopProgress = demand.onProgress?.(() => {
      for (const listener of this.#progressListeners) listener();
    });
    (entry as { stop: () => void }).stop = () => {
      stopChange();
      stopProgress?.();
    };
    // A member that leaves is forgotten at once, so a paused consumer that unsubscribes lets the rest go on.
    (member as { add?: (teardown: () => void) => void }).add?.(() => {
      if (this.#known.get(member) !== entry) return;
      this.#forget(member, entry);
      this.#changed();
    });
  }

  #forget(member: unknown, entry: Member): void {
    this.#known.delete(member);
    if (entry.paused) this.#pausedCount -= 1;
    entry.stop();
  }
}
