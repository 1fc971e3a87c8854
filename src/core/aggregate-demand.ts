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
 * The demand of the consumers of one producer (a `Subject`'s subscribers, `share()`), combined by
 * a {@link Governor}. `members()` is a live list; each member's demand is found once by `resolve`
 * and followed until it unsubscribes; one without demand never pauses; no member: it flows.
 *
 * Reading `paused` never calls a listener: it picks up members that joined (O(1) while none did)
 * and counts the state it returns as told, so a producer that stopped on it hears the resume.
 * Whoever adds a member while a producer waits calls {@link AggregateDemand.refresh}.
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

  /** Picks up the members that joined, and tells the listeners if that changed the state. */
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
    // A member that leaves is forgotten by its own teardown: a change of membership changes the size.
    const members = this.#members();
    if (members.length !== this.#known.size) this.#sync(members);
  }

  /** Tells the listeners of a change; one a listener makes meanwhile is told after this one. */
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
    // Read, not taken from the notification, which may be older than the state.
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
