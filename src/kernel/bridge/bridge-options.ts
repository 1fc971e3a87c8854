import type { BridgeTransport } from './bridge-transport.js';

/** Options of {@link createBridge}. */
export interface BridgeOptions extends BridgeTransport {
  /** Makes call ids. Default: `hc-1`, `hc-2`, … per bridge. */
  readonly callIds?: () => string;
}
