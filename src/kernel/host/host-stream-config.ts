import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';
import type { HostLogger } from './host-logger.js';

/** How a streaming call is set up (see {@link openHostStream}). */
export interface HostStreamConfig {
  readonly extensionId: string;
  readonly callId: string;
  readonly scheduler: MacrotaskScheduler<HostcallOutcome>;
  readonly logger: HostLogger;
  /** Channel capacity: chunks between the producer and their delivery (`buffer_size`). */
  readonly bufferSize: number;
  /** How long the channel may stay full before the stream is cancelled; 0 disables (`stall_timeout_ms`). */
  readonly stallTimeoutMs: number;
  /** Called once, when the stream's last outcome has been enqueued. */
  readonly onClosed: () => void;
}
