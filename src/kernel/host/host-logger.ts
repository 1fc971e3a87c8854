/**
 * Where the host reports what it cannot report to an extension: a stalled stream ("Stream
 * stalled: JS consumer did not pull for 30s"), an extension's delivery callback that threw
 * ("Delivery to extension `ext-a` threw: …", with `{ extensionId, callId, seq, error }`).
 * Injectable so tests can assert the messages; `console` fits.
 *
 * @example
 * ```ts
 * import type { HostLogger } from 'sluice/kernel';
 * const warnings: string[] = [];
 * const logger: HostLogger = { warn: (message) => warnings.push(message) };
 * ```
 */
export interface HostLogger {
  /** A recoverable problem: the host handled it, but someone should know. */
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
}
