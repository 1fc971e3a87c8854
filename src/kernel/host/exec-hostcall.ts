import { lastValueFrom, type SchedulerLike } from 'rxjs';
import { z } from 'zod';
import type { ChunkEvent } from '../../core/chunk.js';
import { SluiceError } from '../../core/errors/sluice-error.js';
import { mapDirect } from '../../core/map-direct.js';
import type { ExecRlimits } from '../../sources/exec/process-port.js';
import { type ExecEvent, type ExecOptions, type ExecResult, exec } from '../../sources/exec.js';
import type { JsonValue } from '../protocol/json-value.js';
import { streamFieldsSchema, timeoutMsSchema } from '../protocol/stream-options.js';
import { fromWireNames, toWireNames } from '../protocol/wire-names.js';
import type { HostcallHandler, StreamProducer } from './host.js';

/**
 * The payload of an `exec` hostcall, in the wire's names. `cmd` is a file to run (no shell);
 * unknown fields are rejected. `rlimits` are the `exec` source's, with no defaults (Node children
 * cannot start under a small `as_bytes`); the one the child ran into comes back as `rlimit_hit`.
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

/** The zod schema of an {@link ExecPayload}. */
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
    timeout_ms: timeoutMsSchema,
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
 * A validated `exec` payload as options of the `exec` source, on the host's clock. `reject`: the
 * streaming producer errors on a failed run, the non-streaming handler reports it in its `Success`.
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
 * Runs a non-streaming `exec` hostcall to its end: `Success({ stdout, stderr, ...exit info })`,
 * a non-zero exit or a signal included; only a spawn failure is an `Error`.
 */
export const execHandler: HostcallHandler = async (raw, context) => {
  const payload = raw as unknown as ExecPayload;
  const options = execPayloadOptions(payload, context.scheduler, false);
  const last = await lastValueFrom(exec(payload.cmd, payload.args ?? [], options));
  if (last.kind !== 'exit') throw new SluiceError('HOSTCALL_FAILED', 'exec ended without an exit event');
  return { stdout: last.content.stdout, stderr: last.content.stderr, ...execExitInfo(last.content) };
};

/**
 * The producer of a streaming `exec` hostcall (docs/protocol.md, "What `exec` and `http` streams
 * carry"): the child's events as {@link execEventToChunk} maps them; a failed run, a timeout or a
 * spawn failure end the stream with an `Error` after the lines. `mapDirect` lets `exec` push the
 * lines of a read straight into the channel.
 */
export const execProducer: StreamProducer = (raw, context) => {
  const payload = raw as unknown as ExecPayload;
  const options = execPayloadOptions(payload, context.scheduler, true);
  return exec(payload.cmd, payload.args ?? [], options).pipe(mapDirect(execEventToChunk));
};

/**
 * An `exec` event as a wire chunk: a stdout line is its string, a stderr line `{ stderr }`, the
 * exit {@link execExitInfo}.
 */
export function execEventToChunk(event: ExecEvent): ChunkEvent<JsonValue> {
  // A stdout line is passed on as it is (docs/performance.md, "Smaller hot functions").
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

/** An exec result's exit in the wire's names: a streaming call's final chunk. */
export function execExitInfo(result: ExecResult): Record<string, JsonValue> {
  const { exitCode, signal, timedOut, truncated, rlimitHit, durationMs } = result;
  return toWireNames({ exitCode, signal, timedOut, truncated, rlimitHit, durationMs });
}
