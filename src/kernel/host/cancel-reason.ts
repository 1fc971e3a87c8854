/**
 * Why a stream was cancelled: `cancelStream` (`'cancelled'`), the stall timer (`'stalled'`) or
 * `unloadExtension` (`'unloaded'`).
 */
export type CancelReason = 'cancelled' | 'stalled' | 'unloaded';
