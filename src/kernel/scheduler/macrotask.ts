/**
 * One unit of work in the kernel's macrotask FIFO: the completion of a hostcall (a `Success`,
 * an `Error`, or one `StreamChunk` of a streaming call), addressed to an extension.
 *
 * `seq` is the global enqueue order given by {@link MacrotaskScheduler.nextSeq}; the queue never
 * reorders, so delivery order is `seq` order. `extensionId` tells the host which extension the
 * completion is for (a frame carries the call id only; the host needs the route).
 */
export interface Macrotask<O = unknown> {
  /** Global, strictly increasing enqueue number (0, 1, 2, … per scheduler). */
  readonly seq: number;
  /** The extension this completion is delivered to. */
  readonly extensionId: string;
  /** The hostcall it completes (or continues, for a stream chunk). */
  readonly callId: string;
  /** What is delivered: a hostcall outcome. */
  readonly outcome: O;
}
