import { lastValueFrom, toArray } from 'rxjs';
import type { JsonValue } from '../protocol/json-value.js';
import type { HostcallHandler } from './hostcall-handler.js';
import { httpProducer } from './http-producer.js';

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
