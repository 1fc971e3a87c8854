/**
 * One extension's link to the host: what its bridge calls. Every method acts on **this
 * extension's** calls only: `pull('hc-1')` / `cancelStream('hc-1')` never touch another
 * extension's `hc-1` (`cancelStream(callId)` as docs/protocol.md has it, scoped by the connection).
 */
export interface HostConnection {
  /** Starts a hostcall of this extension (`host.hostcall(extensionId, request)`). */
  send(request: unknown): void;
  /** Asks for `count` more chunks of this extension's stream `callId` (`Infinity`: flowing). */
  pull(callId: string, count: number): void;
  /** Cancels this extension's stream `callId`; unknown, finished or another extension's: no-op. */
  cancelStream(callId: string): void;
  /** Stops delivering to this extension (later outcomes for it are dropped and counted). */
  disconnect(): void;
}
