import type { BridgeTransport } from './bridge-transport.js';

/**
 * Options of {@link createBridge}.
 *
 * @example
 * ```ts
 * createBridge({ ...connection, callIds: () => `ext-a:${crypto.randomUUID()}` });
 * ```
 */
export interface BridgeOptions extends BridgeTransport {
  /** Makes call ids. Default: `hc-1`, `hc-2`, … per bridge. */
  readonly callIds?: () => string;
}
