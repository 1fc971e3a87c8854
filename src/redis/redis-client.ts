import type { Cluster, Redis } from 'ioredis';

/**
 * What the Redis run store talks to: one server (`Redis`) or a Redis Cluster (`Cluster`), whose
 * command APIs are the same. Every key and script of a run carries the run's hash tag, so a
 * Cluster routes each to the one master of the run's slot. Internal.
 */
export type RedisClient = Redis | Cluster;
