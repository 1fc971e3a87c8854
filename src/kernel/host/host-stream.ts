import type { Observable } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { CancelReason } from './cancel-reason.js';

/**
 * A live streaming call on the host side: its channel, its producer, its counters (see
 * {@link openHostStream} for the model).
 */
export interface HostStream {
  readonly extensionId: string;
  readonly callId: string;
  /** Chunks produced and not yet moved to the scheduler queue. */
  readonly channelled: number;
  /** Chunks in the scheduler queue, not yet delivered. */
  readonly queued: number;
  /** Chunks the extension asked for that the producer has not supplied yet (`Infinity` when flowing). */
  readonly credit: number;
  /** Whether the producer is paused (channelled + queued ≥ buffer size). */
  readonly paused: boolean;
  /** Whether the last outcome has been enqueued. */
  readonly closed: boolean;
  /** How it ended: `'final'`, `'error'`, `'overflow'` or a {@link CancelReason}; `undefined` while open. */
  readonly endReason: CancelReason | 'final' | 'error' | 'overflow' | undefined;
  /** Starts the producer (once). */
  start(producer: Observable<ChunkEvent<JsonValue>>): void;
  /** The extension asks for `count` more chunks (`Infinity`: as fast as they come). */
  pull(count: number): void;
  /** Stops the producer, drops the channel, enqueues the null final chunk. No-op once closed. */
  cancel(reason: CancelReason): void;
}
