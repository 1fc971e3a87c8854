import { type HostcallRequest, parseHostcallRequest } from '../protocol/hostcall-request.js';
import { parseRequestPart } from '../protocol/parse-request-part.js';
import { parseStreamOptions, type StreamOptions } from '../protocol/stream-options.js';
import { execPayloadSchema } from './exec-payload.js';
import { httpPayloadSchema } from './http-payload.js';

/** A hostcall request the host accepted: the request, and its stream options when it streams. */
export interface ValidatedHostcall {
  readonly request: HostcallRequest;
  /** Set iff the call streams: an `exec` / `http` call with `payload.stream === true`. */
  readonly stream: StreamOptions | undefined;
}

/**
 * Validates a raw hostcall request the way the host dispatches it: the envelope
 * (`parseHostcallRequest`), then the payload of `exec` / `http` against its strict schema
 * (which includes `stream`, `buffer_size`, `stall_timeout_ms`). Other kinds' payloads are theirs
 * to check, and they ignore the streaming fields. Throws an `InvalidRequestError` naming the field.
 * (Internal to the host.)
 *
 * @example
 * ```ts
 * validateHostcall({ callId: 'hc-1', kind: 'exec', payload: { cmd: 'ls', stream: true } }).stream;
 * // { stream: true, bufferSize: 16, stallTimeoutMs: 30000 }
 * validateHostcall({ callId: 'hc-2', kind: 'tool', payload: { stream: 'x' } }).stream; // undefined
 * ```
 */
export function validateHostcall(raw: unknown): ValidatedHostcall {
  const request = parseHostcallRequest(raw);
  if (request.kind === 'exec') parseRequestPart(execPayloadSchema, request.payload, 'payload');
  else if (request.kind === 'http') parseRequestPart(httpPayloadSchema, request.payload, 'payload');
  else return { request, stream: undefined };
  const stream = request.payload.stream === true ? parseStreamOptions(request.payload) : undefined;
  return { request, stream };
}
