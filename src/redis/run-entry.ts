import { z } from 'zod';
import type { ChunkEvent } from '../core/chunk.js';
import { InvalidFrameError } from '../core/errors/invalid-frame-error.js';
import type { RunRecord } from '../runs/run-record.js';
import type { CancelDetails } from '../runs/run-store.js';
import { chunkEventBody } from '../runs/sse/run-frames.js';

// What a stream entry holds (docs/scaling.md): a batch `f` (first sequence) + `e` (the events as a
// JSON array, each `{sequence, kind, content, metadata?, isFinal}` as in the SSE frame's data), or
// a terminal control entry `t: 'failure'` + `e` (`{code, name, message}`). Entries come from
// outside this process, so they are validated before anything trusts them.
const eventSchema = z.object({
  sequence: z.number().int().nonnegative(),
  kind: z.string(),
  content: z.unknown(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  isFinal: z.boolean(),
});
const batchSchema = z.array(eventSchema).min(1);
const failureSchema = z.object({ code: z.string(), name: z.string(), message: z.string() });

/**
 * The `e` field of a batch entry: the events as one JSON array. Internal.
 */
export function encodeBatch(events: readonly ChunkEvent<unknown>[]): string {
  let json = '[';
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index] as ChunkEvent<unknown>;
    if (index > 0) json += ',';
    json += JSON.stringify(chunkEventBody(event));
  }
  return `${json}]`;
}

/**
 * Decodes one stream entry (`[id, [field, value, …]]` as `XREAD` returns it) into the record it
 * holds, checking its shape and that its events are consecutive from `f`. Throws an
 * `InvalidFrameError` (`INVALID_FRAME`) for anything else. Internal.
 */
export function decodeEntry(id: string, fields: readonly string[]): Exclude<RunRecord, { type: 'gap' }> {
  const values = new Map<string, string>();
  for (let index = 0; index + 1 < fields.length; index += 2) {
    values.set(fields[index] as string, fields[index + 1] as string);
  }
  const payload = values.get('e');
  let json: unknown;
  try {
    json = JSON.parse(payload ?? '');
  } catch (error) {
    throw invalid(id, 'e', payload, 'is not JSON', error);
  }
  if (values.get('t') === 'failure') {
    const failure = failureSchema.safeParse(json);
    if (!failure.success)
      throw invalid(id, 'e', json, 'is not a failure {code, name, message}', failure.error);
    return { type: 'failure', failure: failure.data };
  }
  const first = Number(values.get('f'));
  const batch = batchSchema.safeParse(json);
  if (!batch.success) throw invalid(id, 'e', json, 'is not an array of chunk events', batch.error);
  const events = batch.data as ChunkEvent<unknown>[];
  for (let index = 0; index < events.length; index += 1) {
    if ((events[index] as ChunkEvent<unknown>).sequence !== first + index) {
      throw invalid(id, 'f', values.get('f'), 'does not number the events that follow it', undefined);
    }
  }
  return { type: 'events', events };
}

function invalid(
  id: string,
  field: string,
  value: unknown,
  problem: string,
  cause: unknown,
): InvalidFrameError {
  return new InvalidFrameError({ field: `entry ${id}.${field}`, value }, problem, { cause });
}

/**
 * A cancel request as a run's meta holds it (`RedisRunStore.cancel`: `{ ...details, reason }` as
 * JSON): its reason and details. Anything else is taken as a bare reason. Internal.
 */
export function parseCancelRequest(request: string): CancelDetails & { reason: string } {
  try {
    const parsed: unknown = JSON.parse(request);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const details = parsed as Record<string, unknown>;
      if (typeof details.reason === 'string') return details as CancelDetails & { reason: string };
    }
  } catch {}
  return { reason: request };
}
