/**
 * Why a stream was cancelled: `cancelStream` (`'cancelled'`), the stall timer (`'stalled'`) or
 * `unloadExtension` (`'unloaded'`).
 *
 * @example
 * ```ts
 * stream.cancel('unloaded');
 * ```
 */
export type CancelReason = 'cancelled' | 'stalled' | 'unloaded';
