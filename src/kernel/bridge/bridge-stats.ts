/**
 * What the bridge has seen, for monitoring and tests.
 *
 * @example
 * ```ts
 * if (bridge.stats.ignored > 0) console.warn(`${bridge.stats.ignored} late outcomes dropped`);
 * ```
 */
export interface BridgeStats {
  /** Outcomes for a call that is unknown or already complete (dropped). */
  readonly ignored: number;
  /** Outcomes that could not be decoded (`INVALID_FRAME`). */
  readonly invalid: number;
}
