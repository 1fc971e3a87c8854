import { failure, type HostcallOutcome, success } from '../protocol/hostcall-outcome.js';
import type { HostcallRequest } from '../protocol/hostcall-request.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { HostcallHandler } from './hostcall-handler.js';
import type { HostcallContext } from './stream-producer.js';
import { toFailure } from './to-failure.js';

/**
 * Serves a non-streaming call with its kind's handler and completes it exactly once: a value
 * (returned or resolved) → `Success(value)`; a throw or rejection → `Error` ({@link toFailure});
 * no handler → `Error { code: 'UNSUPPORTED' }`. A synchronous answer completes at once, which
 * keeps virtual-time runs deterministic. (Internal to the host.)
 *
 * @example
 * ```ts
 * runHandler(handlers.get(request.kind), request, context, (outcome) => enqueue(outcome));
 * ```
 */
export function runHandler(
  handler: HostcallHandler | undefined,
  request: HostcallRequest,
  context: HostcallContext,
  complete: (outcome: HostcallOutcome) => void,
): void {
  if (handler === undefined) {
    complete(failure('UNSUPPORTED', `No handler for hostcall kind \`${request.kind}\``));
    return;
  }
  let result: ReturnType<HostcallHandler>;
  try {
    result = handler(request.payload, context);
  } catch (error) {
    complete(toFailure(error));
    return;
  }
  if (typeof (result as { then?: unknown } | null)?.then !== 'function') {
    complete(success(result as JsonValue));
    return;
  }
  Promise.resolve(result).then(
    (value) => complete(success(value)),
    (error: unknown) => complete(toFailure(error)),
  );
}
