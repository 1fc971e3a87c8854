import type { Cluster, Redis } from 'ioredis';
import type { SchedulerLike } from 'rxjs';

/**
 * One server or a Redis Cluster (the same command APIs). Every key and script of a run carries the
 * run's hash tag, so a Cluster routes each to the one master of the run's slot. Internal.
 */
export type RedisClient = Redis | Cluster;

/**
 * What the writer, the reader and the worker of one `RedisRunStore` share: its connection, its
 * settings, and its cancel channel. Internal.
 */
export interface RedisRunContext {
  /** The command connection (pipelined; never used for blocking commands). */
  readonly client: RedisClient;
  /** Key prefix (`sluice`). */
  readonly prefix: string;
  /** This store's owner id (`host:pid:random`), written as the owner of the runs it writes. */
  readonly owner: string;
  readonly maxEvents: number;
  readonly maxBytes: number;
  readonly retainMs: number;
  readonly leaseMs: number;
  readonly maxBatchEvents: number;
  readonly maxBatchBytes: number;
  readonly maxInFlight: number;
  readonly readCount: number;
  readonly blockMs: number;
  readonly failAfterMs: number;
  readonly scheduler: SchedulerLike;
  /** A new connection for blocking commands (`XREAD BLOCK`, `XREADGROUP BLOCK`); the caller quits it. */
  duplicate(): RedisClient;
  /** Calls `callback` once the command connection is ready again (it reconnected); returns a function that cancels it. */
  whenReady(callback: () => void): () => void;
  /**
   * Listens on a run's control channel (one shared subscriber connection); `subscribed` is called
   * once Redis confirmed the subscription (every message published from then on is delivered).
   */
  listen(channel: string, listener: (message: string) => void, subscribed?: () => void): () => void;
}
