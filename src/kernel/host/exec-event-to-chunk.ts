import type { ChunkEvent } from '../../core/chunk.js';
import type { ExecEvent } from '../../sources/exec.js';
import type { JsonValue } from '../protocol/json-value.js';
import { execExitInfo } from './exec-exit-info.js';

/**
 * How a streaming `exec` hostcall represents the events of the {@link exec} source as wire
 * chunks (the `sequence` and `isFinal` are kept):
 * - a stdout line → the bare string with its newline, (`"line 1\n"`, docs/protocol.md);
 * - a stderr line → `{ stderr: "…" }`;
 * - the exit event (final) → `{ exit_code, signal, timed_out, truncated, rlimit_hit, duration_ms }`.
 *
 * @example
 * ```ts
 * import { map } from 'rxjs';
 * exec('make').pipe(map(execEventToChunk)); // Observable<ChunkEvent<JsonValue>>
 * ```
 */
export function execEventToChunk(event: ExecEvent): ChunkEvent<JsonValue> {
  // A stdout line already is a chunk event of a JSON string: passed on as it is (no copy per line).
  // It is nearly every event, and the only case the producer's per-line path inlines
  // (docs/performance.md, "Smaller hot functions").
  return event.kind === 'stdout' ? event : otherEventToChunk(event);
}

/** An event other than a stdout line (the exit, a stderr line) as a chunk event. */
function otherEventToChunk(event: ExecEvent): ChunkEvent<JsonValue> {
  if (event.kind === 'exit') {
    return { sequence: event.sequence, kind: 'exit', content: execExitInfo(event.content), isFinal: true };
  }
  const base = {
    sequence: event.sequence,
    kind: event.kind,
    content: { stderr: event.content },
    isFinal: false,
  };
  return event.metadata === undefined ? base : { ...base, metadata: event.metadata };
}
