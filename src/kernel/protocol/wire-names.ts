import type { JsonValue } from './json-value.js';

/**
 * The one table of names that differ between TypeScript and the wire (docs/protocol.md, "Names
 * on the wire"): TypeScript's camelCase name → the protocol's snake_case one. Every field not in
 * the table has the same name on both sides (`cmd`, `stdout`, `signal`, `status`, …).
 */
export const WIRE_NAMES: Readonly<Record<string, string>> = {
  bufferSize: 'buffer_size',
  stallTimeoutMs: 'stall_timeout_ms',
  timeoutMs: 'timeout_ms',
  exitCode: 'exit_code',
  timedOut: 'timed_out',
  rlimitHit: 'rlimit_hit',
  limitHit: 'limit_hit',
  durationMs: 'duration_ms',
  cpuUserMs: 'cpu_user_ms',
  cpuSystemMs: 'cpu_system_ms',
  memoryPeakBytes: 'memory_peak_bytes',
  pidsPeak: 'pids_peak',
  cpuSeconds: 'cpu_s',
  addressSpaceBytes: 'as_bytes',
  fileSizeBytes: 'fsize_bytes',
  openFiles: 'nofile',
};

const TS_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(WIRE_NAMES).map(([ts, wire]) => [wire, ts]),
);

/** Fields whose value is itself a record of renamed fields; any other value is kept as it is. */
const NESTED = new Set(['rlimits', 'usage']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function rename(record: Readonly<Record<string, unknown>>, names: Readonly<Record<string, string>>) {
  const renamed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    renamed[names[key] ?? key] = NESTED.has(key) && isRecord(value) ? rename(value, names) : value;
  }
  return renamed;
}

/** A TypeScript record in the wire's names; `undefined` fields are left out. */
export function toWireNames(record: Readonly<Record<string, unknown>>): Record<string, JsonValue> {
  return rename(record, WIRE_NAMES) as Record<string, JsonValue>;
}

/** A record from the wire in TypeScript's names; any other value is returned as it is. */
export function fromWireNames(value: JsonValue): JsonValue {
  return isRecord(value) ? (rename(value, TS_NAMES) as Record<string, JsonValue>) : value;
}
