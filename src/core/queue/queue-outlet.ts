/**
 * What stands between a {@link DemandQueue} and its consumer, beyond the queue's own order and
 * water marks: credit asked for ({@link Credit}), a downstream demand ({@link DemandGate}),
 * values out but not yet taken ({@link InFlight}). A queue is given the outlets its user needs and
 * lets a value out only while every one of them is open.
 */
export interface QueueOutlet {
  /** Whether one more value may go out now. */
  readonly open: boolean;
  /** Values already out that still count against the queue's high-water mark. */
  readonly held: number;
  /** Whether the producer must pause now even with nothing waiting (a child's pipe, see {@link DemandGate}). */
  readonly holdsProducer: boolean;
  /** One value went out through this outlet. */
  sent(): void;
  /**
   * Calls `queue.drain()` after every change of the above; returns a function that stops. The
   * outlet holds the queue, not a closure made per queue: its call site then sees one function for
   * every queue, and V8's optimized code survives a new stream (docs/performance.md, "One call
   * target per call site").
   */
  watch(queue: OutletListener): () => void;
}

/** What an outlet wakes: the queue it belongs to. */
export interface OutletListener {
  drain(): void;
}
