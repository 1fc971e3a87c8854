import { mapDirect } from '../../core/map-direct.js';
import { exec } from '../../sources/exec.js';
import { execEventToChunk } from './exec-event-to-chunk.js';
import type { ExecPayload } from './exec-payload.js';
import { execPayloadOptions } from './exec-payload-options.js';
import type { StreamProducer } from './stream-producer.js';

/**
 * The default producer of a streaming `exec` hostcall, on the {@link exec} source (own process
 * group, killed on cancel). Chunks, in the order the child wrote them, as
 * {@link execEventToChunk} maps them: stdout lines as bare strings (`"line 1\n"`), stderr lines as
 * `{ stderr: "…" }`, and a final `{ exit_code: 0, signal: null, timed_out, truncated, rlimit_hit, duration_ms }`.
 *
 * A non-zero exit, a death by signal or `timeout_ms` end the stream with
 * `Error { code: 'EXEC_FAILED' | 'TIMEOUT' }` after the lines (a child killed by one of its
 * `rlimits` fails with `EXEC_FAILED`, the limit named in the message: "Command was killed with
 * SIGXCPU (cpu limit hit): …"); a spawn failure with `Error { code: 'SPAWN_FAILED' }`. The child's pipes are read only while the channel has room; `mapDirect` lets exec push the lines of a read straight into the channel.
 *
 * @example
 * ```ts
 * const host = createHost({ producers: { exec: execProducer } });
 * ```
 */
export const execProducer: StreamProducer = (raw, context) => {
  const payload = raw as unknown as ExecPayload;
  const options = execPayloadOptions(payload, context.scheduler, true);
  return exec(payload.cmd, payload.args ?? [], options).pipe(mapDirect(execEventToChunk));
};
