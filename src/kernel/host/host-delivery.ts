import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { Macrotask } from '../scheduler/macrotask.js';

/**
 * Receives the macrotasks of one extension, in `seq` order. In-process, `connectExtension`
 * connects its bridge's own entry (which skips the decode of a chunk the host built); a delivery
 * made by hand calls `bridge.completeHostcall(task.callId, task.outcome)`.
 * If it throws, the host logs a warning and goes on delivering: one extension's failing callback
 * never stops the others' deliveries.
 */
export type HostDelivery = (task: Macrotask<HostcallOutcome>) => void;
