import type { CancelDetails } from '../runs/run-store.js';

/**
 * A cancel request as a run's meta holds it (`RedisRunStore.cancel`: `{ ...details, reason }` as
 * JSON): its reason and details. Anything else is taken as a bare reason. Internal.
 *
 * @example
 * ```ts
 * parseCancelRequest('{"by":"page","reason":"stop"}'); // { reason: 'stop', details: { by: 'page' } }
 * ```
 */
export function parseCancelRequest(request: string): { reason: string; details: CancelDetails } {
  try {
    const parsed: unknown = JSON.parse(request);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const { reason, ...details } = parsed as Record<string, unknown>;
      if (typeof reason === 'string') return { reason, details };
    }
  } catch {}
  return { reason: request, details: {} };
}
