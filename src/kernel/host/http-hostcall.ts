import { defer, filter, lastValueFrom, map, toArray } from 'rxjs';
import { z } from 'zod';
import type { ChunkEvent } from '../../core/chunk.js';
import { http } from '../../sources/http.js';
import type { JsonValue } from '../protocol/json-value.js';
import { streamFieldsSchema, timeoutMsSchema } from '../protocol/stream-options.js';
import { toWireNames } from '../protocol/wire-names.js';
import type { HostcallHandler, StreamProducer } from './host.js';

/** The payload of an `http` hostcall; `lines: true` streams the body as UTF-8 lines. */
interface HttpPayload {
  readonly url: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeout_ms?: number;
  readonly lines?: boolean;
  readonly stream?: boolean;
  readonly buffer_size?: number;
  readonly stall_timeout_ms?: number;
}

/** The zod schema of an {@link HttpPayload}; `url` must be an absolute http(s) URL. */
export const httpPayloadSchema: z.ZodType<HttpPayload, unknown> = z.strictObject(
  {
    ...streamFieldsSchema.shape,
    url: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
    method: z
      .string({ error: 'must be an HTTP method' })
      .regex(/^[A-Za-z]+$/, { error: 'must be an HTTP method' })
      .optional(),
    headers: z
      .record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object' })
      .optional(),
    body: z.string({ error: 'must be a string' }).optional(),
    timeout_ms: timeoutMsSchema,
    lines: z.boolean({ error: 'must be a boolean' }).optional(),
  },
  { error: 'must be an object' },
);

/** Runs a non-streaming `http` hostcall to its end: `Success({ status, body, bytes, duration_ms })`. */
export const httpHandler: HostcallHandler = async (payload, context) => {
  const events = await lastValueFrom(httpProducer(payload, context).pipe(toArray()));
  let body = '';
  let end: Record<string, JsonValue> = {};
  for (const event of events) {
    if (event.isFinal) end = (event.content ?? {}) as Record<string, JsonValue>;
    else if (typeof event.content === 'string') body += event.content;
  }
  return { ...end, body };
};

/**
 * The producer of a streaming `http` hostcall (docs/protocol.md, "What `exec` and `http` streams
 * carry"), on the {@link http} source: the body read only while the channel has room.
 */
export const httpProducer: StreamProducer = (raw, context) => {
  const payload = raw as unknown as HttpPayload;
  const init: RequestInit = { method: payload.method ?? 'GET' };
  if (payload.headers !== undefined) init.headers = { ...payload.headers };
  if (payload.body !== undefined) init.body = payload.body;
  const options = { timeoutMs: payload.timeout_ms ?? 0, scheduler: context.scheduler };
  return defer(() => {
    const decoder = new TextDecoder();
    return http(payload.url, init, { ...options, lines: payload.lines ?? false }).pipe(
      filter((event) => event.kind !== 'response'),
      map((event): ChunkEvent<JsonValue> => {
        if (event.kind === 'end') {
          const { status, bytes, durationMs } = event.content;
          return { ...event, content: toWireNames({ status, bytes, durationMs }) };
        }
        const body = event.content as string | Uint8Array;
        const text = typeof body === 'string' ? body : decoder.decode(body, { stream: true });
        return { ...event, content: text };
      }),
    );
  });
};
