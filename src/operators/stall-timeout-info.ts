/** What {@link stallTimeout} knows when a stream stalls; given to the logger and to `onStall`. */
export interface StallTimeoutInfo {
  /** The configured stall timeout, in milliseconds. */
  readonly ms: number;
  /** The sequence of the last event that passed, `undefined` if none did. */
  readonly lastSequence: number | undefined;
  /** `scheduler.now()` when the stall clock last started: the consumer's pause, or its last progress since. */
  readonly pausedAt: number;
}
