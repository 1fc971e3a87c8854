import type { HostcallKind } from '../protocol/hostcall-kind.js';
import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';
import type { HostLogger } from './host-logger.js';
import type { HostcallHandler } from './hostcall-handler.js';
import type { StreamProducer } from './stream-producer.js';

/** Options of {@link createHost}. */
export interface HostOptions {
  /** The macrotask scheduler completions go through. Default: a real-time one (`createMacrotaskScheduler()`). */
  readonly scheduler?: MacrotaskScheduler<HostcallOutcome>;
  /** Where stall warnings and failed deliveries go. Default `console`. */
  readonly logger?: HostLogger;
  /** Streaming producers of `exec` / `http` (default: the `exec` and `http` sources). */
  readonly producers?: Partial<Record<'exec' | 'http', StreamProducer>>;
  /** Handlers of non-streaming kinds (default: `exec` and `http` run to completion; others unhandled). */
  readonly handlers?: Partial<Record<HostcallKind, HostcallHandler>>;
}
