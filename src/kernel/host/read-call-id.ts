import { InvalidRequestError } from '../../core/errors/invalid-request-error.js';

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
