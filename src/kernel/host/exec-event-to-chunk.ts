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
  if (event.kind === 'exit') {
    return { sequence: event.sequence, kind: 'exit', content: execExitInfo(event.content), isFinal: true };
  }
  // A stdout line already is a chunk event of a JSON string: passed on as it is (no copy per line).
  if (event.kind === 'stdout') return event;
  const base = {
    sequence: event.sequence,
    kind: event.kind,
    content: { stderr: event.content },
    isFinal: false,
  };
  return event.metadata === undefined ? base : { ...base, metadata: event.metadata };
}
