/**
 * What {@link stallTimeout} knows when a stream stalls; given to the logger and to `onStall`.
 *
 * @example
 * ```ts
 * import type { StallTimeoutInfo } from 'sluice/operators';
 * const onStall = (info: StallTimeoutInfo) => console.log(`stalled after #${info.lastSequence}`);
 * ```
 */
export interface StallTimeoutInfo {
  /** The configured stall timeout, in milliseconds. */
  readonly ms: number;
  /** The sequence of the last event that passed, `undefined` if none did. */
  readonly lastSequence: number | undefined;
  /** `scheduler.now()` when the stall clock last started: the consumer's pause, or its last progress since. */
  readonly pausedAt: number;
}
