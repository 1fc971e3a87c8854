/**
 * Where the host reports what it cannot report to an extension: a stalled stream ("Stream
 * stalled: JS consumer did not pull for 30s"), an extension's delivery callback that threw
 * ("Delivery to extension `ext-a` threw: …", with `{ extensionId, callId, seq, error }`).
 * Injectable so tests can assert the messages; `console` fits.
 */
export interface HostLogger {
  /** A recoverable problem: the host handled it, but someone should know. */
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
}
