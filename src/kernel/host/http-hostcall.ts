import { defer, filter, lastValueFrom, map, toArray } from 'rxjs';
import { z } from 'zod';
import type { ChunkEvent } from '../../core/chunk.js';
import { http } from '../../sources/http.js';
import type { JsonValue } from '../protocol/json-value.js';
import { streamFieldsSchema } from '../protocol/stream-options.js';
import { toWireNames } from '../protocol/wire-names.js';
import type { HostcallHandler, StreamProducer } from './host.js';

/**
 * The payload of an `http` hostcall (snake_case):
 * `{ url, method?, headers?, body?, timeout_ms?, lines?, stream?, buffer_size?, stall_timeout_ms? }`.
 * `lines: true` streams the body as UTF-8 lines (each with its `\n`); otherwise each chunk is
 * the decoded text of one read.
 */
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
    timeout_ms: z
      .number({ error: 'must be a non-negative integer' })
      .int({ error: 'must be a non-negative integer' })
      .min(0, { error: 'must be a non-negative integer' })
      .optional(),
    lines: z.boolean({ error: 'must be a boolean' }).optional(),
  },
  { error: 'must be an object' },
);

/**
 * The default handler of a non-streaming `http` hostcall: runs the same exchange as
 * {@link httpProducer} to its end and answers `Success({ status, body, bytes, duration_ms })`,
 * the body as one string. Failures reject with the source's error (`HTTP_STATUS`, …).
 *
 * @example
 * ```ts
 * const host = createHost({ handlers: { http: httpHandler } });
 * ```
 */
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
 * The default producer of a streaming `http` hostcall, on the {@link http} source. Chunks:
 * each body read as a string (decoded UTF-8, or one line with its `\n` when `lines: true`); the
 * final chunk is `{ status, bytes, duration_ms }`. A non-2xx status, a dropped connection or
 * `timeout_ms` end the stream with `Error { code: 'HTTP_STATUS' | 'HTTP_FAILED' | 'TIMEOUT' }`.
 * The body is read only while the host's channel has room.
 *
 * @example
 * ```ts
 * const host = createHost({ producers: { http: httpProducer } });
 * ```
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
