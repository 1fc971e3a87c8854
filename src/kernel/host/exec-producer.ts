import { map } from 'rxjs';
import { exec } from '../../sources/exec.js';
import { execEventToChunk } from './exec-event-to-chunk.js';
import type { ExecPayload } from './exec-payload.js';
import type { StreamProducer } from './stream-producer.js';

/**
 * The default producer of a streaming `exec` hostcall, on the {@link exec} source (own process
 * group, killed on cancel). Chunks, in the order the child wrote them, as
 * {@link execEventToChunk} maps them: stdout lines as bare strings (`"line 1\n"`), stderr lines as
 * `{ stderr: "…" }`, and a final `{ exit_code: 0, signal: null, timed_out, truncated, rlimit_hit, duration_ms }`.
 *
 * A non-zero exit, a death by signal or `timeout_ms` end the stream with
 * `Error { code: 'EXEC_FAILED' | 'TIMEOUT' }` after the lines; a spawn failure with
 * `Error { code: 'SPAWN_FAILED' }`. The child's pipes are read only while the channel has room.
 *
 * @example
 * ```ts
 * const host = createHost({ producers: { exec: execProducer } });
 * ```
 */
export const execProducer: StreamProducer = (raw, context) => {
  const payload = raw as unknown as ExecPayload;
  const options: Parameters<typeof exec>[2] = {
    timeoutMs: payload.timeout_ms ?? 0,
    scheduler: context.scheduler,
    reject: true,
  };
  if (payload.cwd !== undefined) options.cwd = payload.cwd;
  if (payload.env !== undefined) options.env = { ...payload.env };
  return exec(payload.cmd, payload.args ?? [], options).pipe(map(execEventToChunk));
};
