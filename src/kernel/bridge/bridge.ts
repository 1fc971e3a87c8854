import type { HostcallKind } from '../protocol/hostcall-kind.js';
import type { HostcallPayload } from '../protocol/hostcall-request.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { BridgeStats } from './bridge-stats.js';
import type { HostcallStream } from './hostcall-stream.js';

/** The extension side of the hostcall protocol (see {@link createBridge}). */
export interface Bridge {
  readonly stats: BridgeStats;
  /** Hands the bridge an outcome for `callId`, as a `HostcallOutcome` or in the bridge shape. */
  completeHostcall(callId: string, outcome: unknown): void;
  /** A non-streaming hostcall: resolves with the `Success` value, rejects with a `SluiceError` carrying the `Error` code. */
  call(kind: HostcallKind, payload: HostcallPayload): Promise<JsonValue>;
  /** A streaming hostcall (`payload.stream` is set to `true`). */
  stream(kind: HostcallKind, payload: HostcallPayload): HostcallStream;
  /** Cancels a stream (docs/protocol.md, "Cancel"); unknown or finished: no-op. */
  cancelStream(callId: string): void;
  /** The call ids still waiting for an outcome. */
  pending(): readonly string[];
}
