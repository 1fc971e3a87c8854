import type { ParsedTraceparent } from './parse-traceparent.js';

/**
 * The W3C `traceparent` (version `00`) of a span context.
 *
 * @example
 * ```ts
 * formatTraceparent({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 });
 * // '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
 * ```
 */
export function formatTraceparent(context: ParsedTraceparent): string {
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}
