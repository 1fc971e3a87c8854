import type { HostcallOutcome } from '../kernel/protocol/hostcall-outcome.js';
import type { JsonValue } from '../kernel/protocol/json-value.js';
import type { Macrotask } from '../kernel/scheduler/macrotask-scheduler.js';

/**
 * One delivered macrotask as a row of the tables of docs/protocol.md: `seq` and `callId`, then either the
 * stream chunk (`sequence`, `chunk`, `isFinal`), the `error` (`{ code, message }`) or the
 * success `value`.
 */
export type DeliveryRow = { readonly seq: number; readonly extensionId: string; readonly callId: string } & (
  | { readonly sequence: number; readonly chunk: JsonValue; readonly isFinal: boolean }
  | { readonly error: { readonly code: string; readonly message: string } }
  | { readonly value: JsonValue }
);

/**
 * Turns a delivered macrotask into a {@link DeliveryRow}.
 *
 * @example
 * ```ts
 * host.connect('ext-a', (task) => rows.push(toDeliveryRow(task)));
 * ```
 */
export function toDeliveryRow(task: Macrotask<HostcallOutcome>): DeliveryRow {
  const { seq, extensionId, callId, outcome } = task;
  if (outcome.type === 'streamChunk') {
    return {
      seq,
      extensionId,
      callId,
      sequence: outcome.sequence,
      chunk: outcome.chunk,
      isFinal: outcome.isFinal,
    };
  }
  if (outcome.type === 'error')
    return { seq, extensionId, callId, error: { code: outcome.code, message: outcome.message } };
  return { seq, extensionId, callId, value: outcome.value };
}
