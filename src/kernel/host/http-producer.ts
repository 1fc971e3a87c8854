import { defer, filter, map } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { http } from '../../sources/http.js';
import type { JsonValue } from '../protocol/json-value.js';
import { toWireNames } from '../protocol/wire-names.js';
import type { HttpPayload } from './http-payload.js';
import type { StreamProducer } from './stream-producer.js';

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
