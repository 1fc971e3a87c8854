import type { HostcallRequest } from '../protocol/hostcall-request.js';

/** How a bridge reaches its host (in-process: a `HostConnection` from `host.connect`, or its methods). */
export interface BridgeTransport {
  /** Hands a request to the host. */
  send(request: HostcallRequest): void;
  /** Asks for `count` more chunks of a stream. */
  pull(callId: string, count: number): void;
  /** Cancels a stream on the host. */
  cancelStream(callId: string): void;
}
