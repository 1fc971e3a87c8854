import { InvalidRequestError } from '../../core/errors/invalid-request-error.js';
import { type HostcallRequest, parseHostcallRequest } from '../protocol/hostcall-request.js';
import { parsePart } from '../protocol/parse-part.js';
import { parseStreamOptions, type StreamOptions } from '../protocol/stream-options.js';
import { execPayloadSchema } from './exec-hostcall.js';
import { httpPayloadSchema } from './http-hostcall.js';

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
  if (request.kind === 'exec') parsePart(execPayloadSchema, request.payload, 'payload', InvalidRequestError);
  else if (request.kind === 'http')
    parsePart(httpPayloadSchema, request.payload, 'payload', InvalidRequestError);
  else return { request, stream: undefined };
  const stream = request.payload.stream === true ? parseStreamOptions(request.payload) : undefined;
  return { request, stream };
}

/**
 * Reads the `callId` of a raw hostcall request before anything else: without a usable one there
 * is no call to complete, so this is the one request problem the host throws for, as an
 * `InvalidRequestError` (code `INVALID_REQUEST`) naming the field. (Internal to the host.)
 *
 * @example
 * ```ts
 * readCallId({ callId: 'hc-1', kind: 'ui', payload: {} }); // 'hc-1'
 * readCallId({ kind: 'ui' });
 * // throws: Invalid hostcall request: `callId` must be a non-empty string, got nothing
 * ```
 */
export function readCallId(raw: unknown): string {
  const callId = typeof raw === 'object' && raw !== null ? (raw as { callId?: unknown }).callId : undefined;
  if (typeof callId === 'string' && callId !== '') return callId;
  throw new InvalidRequestError({ field: 'callId', value: callId }, 'must be a non-empty string');
}
