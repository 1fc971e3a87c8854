/** What the bridge has seen, for monitoring and tests. */
export interface BridgeStats {
  /** Outcomes for a call that is unknown or already complete (dropped). */
  readonly ignored: number;
  /** Outcomes that could not be decoded (`INVALID_FRAME`). */
  readonly invalid: number;
}
