/** A producer may overshoot a pause by what it had in hand (one read split into lines); past this, it is broken. */
const OVERSHOOT_FACTOR = 64;
const MIN_OVERFLOW_LIMIT = 65_536;

/**
 * How many undelivered chunks (channelled + queued) a stream of `bufferSize` tolerates before it
 * ends with `BUFFER_OVERFLOW`: `max(64 × bufferSize, 65536)` (docs/protocol.md, "The bounded
 * channel"; stated in marbles/HOSTCALL.md, whose test checks it against this function).
 *
 * @example
 * ```ts
 * overflowLimit(16); // 65536
 * overflowLimit(4096); // 262144
 * ```
 */
export function overflowLimit(bufferSize: number): number {
  return Math.max(bufferSize * OVERSHOOT_FACTOR, MIN_OVERFLOW_LIMIT);
}
