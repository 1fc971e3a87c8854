const STALLED = Symbol.for('sluice.stalled');

/**
 * Marks `subscriber` (the one a stall detector subscribed its source with) as unsubscribed for a
 * stall, just before the detector unsubscribes it, so that the producer above learns why it was
 * cancelled ({@link stalledBelow}): its span ends with `stall`, not `cancel` (docs/tracing.md).
 *
 * @example
 * ```ts
 * markStalled(upstream, { ms: 30_000 });
 * upstream.unsubscribe();
 * ```
 */
export function markStalled(subscriber: object, stall: StallMark): void {
  (subscriber as { [STALLED]?: StallMark })[STALLED] = stall;
}

/** What {@link markStalled} leaves on a subscriber. */
export interface StallMark {
  /** The stall timeout that ran out, in milliseconds. */
  readonly ms: number;
}
