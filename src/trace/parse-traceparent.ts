/** The parts of a W3C `traceparent`. */
export interface ParsedTraceparent {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero: the parent span. */
  readonly spanId: string;
  /** The trace flags (bit 0: sampled). */
  readonly traceFlags: number;
}

const HEX = /^[0-9a-f]+$/;
const ZEROS = /^0+$/;

/**
 * Parses a W3C Trace Context `traceparent` (`00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`),
 * or gives `undefined` for anything else: a wrong length, upper-case or non-hex digits, an
 * all-zero id, version `ff`. A later version is read by its first four fields, as the
 * specification asks, when what follows them starts with `-`.
 *
 * @example
 * ```ts
 * parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
 * // { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 }
 * ```
 */
export function parseTraceparent(value: unknown): ParsedTraceparent | undefined {
  if (typeof value !== 'string' || value.length < 55) return undefined;
  const version = value.slice(0, 2);
  if (!HEX.test(version) || version === 'ff') return undefined;
  if (version === '00' ? value.length !== 55 : value.length > 55 && value[55] !== '-') return undefined;
  if (value[2] !== '-' || value[35] !== '-' || value[52] !== '-') return undefined;
  const traceId = value.slice(3, 35);
  const spanId = value.slice(36, 52);
  const flags = value.slice(53, 55);
  if (!HEX.test(traceId) || !HEX.test(spanId) || !HEX.test(flags)) return undefined;
  if (ZEROS.test(traceId) || ZEROS.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}
