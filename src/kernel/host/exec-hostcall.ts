import { lastValueFrom, type SchedulerLike } from 'rxjs';
import { z } from 'zod';
import type { ChunkEvent } from '../../core/chunk.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { mapDirect } from '../../core/map-direct.js';
import type { ExecRlimits } from '../../sources/exec/process-port.js';
import { type ExecEvent, type ExecOptions, type ExecResult, exec } from '../../sources/exec.js';
import type { JsonValue } from '../protocol/json-value.js';
import { streamFieldsSchema } from '../protocol/stream-options.js';
import { fromWireNames, toWireNames } from '../protocol/wire-names.js';
import type { HostcallHandler, StreamProducer } from './host.js';

/**
 * The payload of an `exec` hostcall, as the extension sends it (snake_case):
 * `{ cmd, args?, cwd?, env?, timeout_ms?, rlimits?, stream?, buffer_size?, stall_timeout_ms? }`.
 * `cmd` is a file to run (no shell); unknown fields are rejected so a typo is an error.
 * `rlimits` (`cpu_s`, `as_bytes`, `fsize_bytes`, `nofile`, each a positive integer) are applied
 * to the child with `prlimit`, as the `exec` source's `cpuSeconds`, `addressSpaceBytes`,
 * `fileSizeBytes` and `openFiles`; there are no defaults (Node children cannot start under a
 * small `as_bytes`). Which one the child ran into comes back as `rlimit_hit`.
 */
export interface ExecPayload {
  readonly cmd: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeout_ms?: number;
  readonly rlimits?: ExecPayloadRlimits;
  readonly stream?: boolean;
  readonly buffer_size?: number;
  readonly stall_timeout_ms?: number;
}

/** The resource limits an `exec` hostcall may ask for (see {@link ExecPayload}). */
interface ExecPayloadRlimits {
  readonly cpu_s?: number;
  readonly as_bytes?: number;
  readonly fsize_bytes?: number;
  readonly nofile?: number;
}

const positiveInteger = () =>
  z
    .number({ error: 'must be a positive integer' })
    .int({ error: 'must be a positive integer' })
    .positive({ error: 'must be a positive integer' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'must be a positive integer' })
    .optional();

/**
 * The zod schema of an {@link ExecPayload}; its messages follow the field name
 * ("`payload.cmd` must be a non-empty string").
 */
export const execPayloadSchema: z.ZodType<ExecPayload, unknown> = z.strictObject(
  {
    ...streamFieldsSchema.shape,
    cmd: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
    args: z
      .array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' })
      .optional(),
    cwd: z.string({ error: 'must be a string' }).optional(),
    env: z
      .record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object' })
      .optional(),
    timeout_ms: z
      .number({ error: 'must be a non-negative integer' })
      .int({ error: 'must be a non-negative integer' })
      .min(0, { error: 'must be a non-negative integer' })
      .optional(),
    rlimits: z
      .strictObject(
        {
          cpu_s: positiveInteger(),
          as_bytes: positiveInteger(),
          fsize_bytes: positiveInteger(),
          nofile: positiveInteger(),
        },
        { error: 'must be an object' },
      )
      .optional(),
  },
  { error: 'must be an object' },
);

/**
 * Maps a validated `exec` payload to options of the `exec` source: `cwd`, `env`, `timeout_ms`
 * (`timeoutMs`, 0 = none) and `rlimits` (`cpu_s` → `cpuSeconds`, … by {@link fromWireNames}), on the host's
 * clock. `reject` is the caller's: the streaming producer errors on a failed run, the
 * non-streaming handler reports it in its `Success`.
 *
 * @example
 * ```ts
 * execPayloadOptions({ cmd: 'make', rlimits: { cpu_s: 60 } }, asyncScheduler, true);
 * // { timeoutMs: 0, scheduler, reject: true, rlimits: { cpuSeconds: 60 } }
 * ```
 */
export function execPayloadOptions(
  payload: ExecPayload,
  scheduler: SchedulerLike,
  reject: boolean,
): ExecOptions {
  const options: ExecOptions = { timeoutMs: payload.timeout_ms ?? 0, scheduler, reject };
  if (payload.cwd !== undefined) options.cwd = payload.cwd;
  if (payload.env !== undefined) options.env = { ...payload.env };
  if (payload.rlimits !== undefined) options.rlimits = fromWireNames({ ...payload.rlimits }) as ExecRlimits;
  return options;
}

/**
 * The default handler of a non-streaming `exec` hostcall (the path without `stream: true`): runs the
 * command to its end and answers `Success({ stdout, stderr, exit_code, signal, timed_out,
 * truncated, rlimit_hit, duration_ms })`. A non-zero exit or a death by signal is still a
 * `Success` (read `exit_code`, `signal`, and `rlimit_hit`: `'cpu'`, `'addressSpace'`, `'fileSize'`,
 * `'openFiles'` or `null`, for the payload's `rlimits`); only a spawn failure (`SPAWN_FAILED`) is an `Error`.
 *
 * @example
 * ```ts
 * const host = createHost({ handlers: { exec: execHandler } });
 * ```
 */
export const execHandler: HostcallHandler = async (raw, context) => {
  const payload = raw as unknown as ExecPayload;
  const options = execPayloadOptions(payload, context.scheduler, false);
  const last = await lastValueFrom(exec(payload.cmd, payload.args ?? [], options));
  if (last.kind !== 'exit') throw new SluiceError('HOSTCALL_FAILED', 'exec ended without an exit event');
  return { stdout: last.content.stdout, stderr: last.content.stderr, ...execExitInfo(last.content) };
};

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

/**
 * How an exec result's exit travels on the wire (snake_case, as docs/protocol.md writes it):
 * the final chunk of a streaming `exec` hostcall is exactly this, and the non-streaming answer is
 * this plus `stdout` and `stderr`. Internal to the host; the names come from {@link toWireNames}.
 *
 * @example
 * ```ts
 * execExitInfo(result); // { exit_code: 0, signal: null, timed_out: false, truncated: false, rlimit_hit: null, duration_ms: 12 }
 * ```
 */
export function execExitInfo(result: ExecResult): Record<string, JsonValue> {
  const { exitCode, signal, timedOut, truncated, rlimitHit, durationMs } = result;
  return toWireNames({ exitCode, signal, timedOut, truncated, rlimitHit, durationMs });
}
