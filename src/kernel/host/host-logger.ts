/**
 * Where the host reports what it cannot report to an extension (a stalled stream, an outcome
 * with no extension to deliver it to). Injectable so tests can assert the messages;
 * `console` fits.
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
