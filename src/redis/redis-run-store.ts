import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import { RunStoreError } from '../core/errors/run-store-error.js';
import { optionError } from '../core/option-error.js';
import { readBoolean } from '../core/read-boolean.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { readAfter } from '../runs/follow-run.js';
import type { RunFailure, RunRecord } from '../runs/run-record.js';
import type {
  CancelDetails,
  LastRecord,
  RunInfo,
  RunReadOptions,
  RunStore,
  RunWriter,
  RunWriterOptions,
} from '../runs/run-store.js';
import { addressOfClient, connectRedis, watchConnection } from './connect-redis.js';
import { readRun } from './read-run.js';
import type { RedisClient, RedisRunContext } from './redis-run-context.js';
import { RedisRunWriter } from './redis-run-writer.js';
import { decodeEntry, parseCancelRequest } from './run-entry.js';
import { isRunId, runKeys } from './run-keys.js';
import { CANCEL, evalScript, judgeOwner, RUN_SCRIPTS, runNotFound } from './run-scripts.js';

/**
 * Options of {@link RedisRunStore}: `url` or `cluster` (the store opens and closes its
 * connections), or `client` (yours; the store only duplicates it). Every other has a default.
 */
export interface RedisRunStoreOptions {
  /** `redis://[user:password@]host:port[/db]`. */
  readonly url?: string;
  /** A Redis Cluster's startup nodes: each run lives on the master of its slot (docs/scaling.md). */
  readonly cluster?: readonly (string | { readonly host: string; readonly port: number })[];
  /** An ioredis `Redis` or `Cluster`, not closed by `close()`; give it a `commandTimeout` of `failAfterMs`. */
  readonly client?: RedisClient;
  /**
   * How long a command may wait for Redis (dead, unreachable, failing over) before it fails, in
   * ms: a writer or a reader then ends with `RUN_STORE_FAILED`. Default `5000`.
   */
  readonly failAfterMs?: number;
  /**
   * Give up at once when the first connection is refused (no server, no route, an unknown host,
   * bad credentials), naming the address and the cause: for one-shot commands. Default `false`:
   * keep retrying, as a worker or a server started before Redis wants.
   */
  readonly failFast?: boolean;
  /** Prefix of every key. Default `'sluice'`. */
  readonly prefix?: string;
  /** The owner id written on the runs this process writes. Default `host:pid:random`. */
  readonly owner?: string;
  /** Events kept per run (older ones are trimmed: a reader gets a gap). Default `1_000_000`. */
  readonly maxEvents?: number;
  /** Bytes of stored event JSON kept per run, trimmed from the oldest (docs/scaling.md). Default 64 MiB. */
  readonly maxBytes?: number;
  /** How long a run stays readable after its end (or its owner's last heartbeat), in ms. Default one hour. */
  readonly retainMs?: number;
  /** A run whose owner has not renewed its lease for this long ends with `OWNER_LOST`. Default `10_000`. */
  readonly leaseMs?: number;
  /** Events per stream entry at most. Default `1024`. */
  readonly maxBatchEvents?: number;
  /** Approximate bytes of content per stream entry at most. Default `262_144`. */
  readonly maxBatchBytes?: number;
  /** Batches awaiting Redis's reply per writer, at most; then the producer is paused. Default `4`. */
  readonly maxInFlight?: number;
  /** Entries per `XREAD` of a follower. Default `16`. */
  readonly readCount?: number;
  /** How long a follower's `XREAD` blocks before it checks the owner's lease, in ms. Default `1000`. */
  readonly blockMs?: number;
  /** The clock of heartbeats. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

const KNOWN = `url cluster client failAfterMs failFast prefix owner maxEvents maxBytes retainMs leaseMs
  maxBatchEvents maxBatchBytes maxInFlight readCount blockMs scheduler`.split(/\s+/);

/** Options of {@link RedisRunStore.openWriter}: `RunWriterOptions`, and the run's own retention. */
export interface RedisRunWriterOptions extends RunWriterOptions {
  readonly maxEvents?: number;
  readonly maxBytes?: number;
  readonly retainMs?: number;
}

function text(options: RedisRunStoreOptions, name: 'prefix' | 'owner', fallback: string): string {
  const value = options[name] ?? fallback;
  if (typeof value !== 'string' || value === '' || /[{}\s]/.test(value)) {
    throw optionError(name, 'a non-empty string without braces or spaces', value);
  }
  return value;
}

/**
 * The Redis Streams run store: runs followed, resumed and cancelled from any machine that reaches
 * the same Redis, and a worker pool on top ({@link startWorker}). The client is ioredis, an
 * optional peer. Layout, failure modes and retention: docs/scaling.md.
 *
 * @example
 * ```ts
 * import { exec, fromRunStore, toRunStore } from 'sluice';
 * import { RedisRunStore } from 'sluice/redis';
 *
 * const store = new RedisRunStore({ url: 'redis://127.0.0.1:6379' });
 * exec('make', ['test'], { reject: false }).pipe(toRunStore(store, 'build-7')).subscribe();
 * // on any machine:
 * fromRunStore(store, 'build-7', { after: 41 }).subscribe((event) => console.log(event.sequence));
 * ```
 */
export class RedisRunStore implements RunStore {
  /** The command connection (no blocking commands: see {@link duplicate}). */
  readonly client: RedisClient;
  readonly prefix: string;
  readonly owner: string;
  readonly #ownsClient: boolean;
  readonly #context: RedisRunContext;
  #subscriber: RedisClient | undefined;
  readonly #channels = new Map<
    string,
    { listeners: Set<(message: string) => void>; subscribed: Promise<void> }
  >();
  readonly #connections = new Set<RedisClient>();
  readonly #failAfterMs: number;
  readonly #failFast: boolean;
  #closed = false;
  readonly #readyWaiters = new Set<() => void>();
  readonly #ready = () => {
    const waiters = [...this.#readyWaiters];
    this.#readyWaiters.clear();
    for (const waiter of waiters) waiter();
  };

  constructor(options: RedisRunStoreOptions) {
    if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
    rejectUnknownOptions(options, KNOWN);
    this.#failAfterMs = readInteger(options, 'failAfterMs', 5000, { min: 1 });
    this.#failFast = readBoolean(options, 'failFast', false);
    const { client, owned } = connectRedis(options, this.#failAfterMs, this.#failFast);
    this.client = client;
    this.#ownsClient = owned;
    const scheduler = options.scheduler ?? asyncScheduler;
    if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
      throw optionError('scheduler', 'a SchedulerLike', scheduler);
    }
    this.prefix = text(options, 'prefix', 'sluice');
    this.owner = text(options, 'owner', `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`);
    this.#context = {
      client: this.client,
      prefix: this.prefix,
      owner: this.owner,
      maxEvents: readInteger(options, 'maxEvents', 1_000_000, { min: 1 }),
      maxBytes: readInteger(options, 'maxBytes', 64 * 1024 * 1024, { min: 1 }),
      retainMs: readInteger(options, 'retainMs', 3_600_000, { min: 1 }),
      leaseMs: readInteger(options, 'leaseMs', 10_000, { min: 1 }),
      maxBatchEvents: readInteger(options, 'maxBatchEvents', 1024, { min: 1 }),
      maxBatchBytes: readInteger(options, 'maxBatchBytes', 262_144, { min: 1 }),
      maxInFlight: readInteger(options, 'maxInFlight', 4, { min: 1 }),
      readCount: readInteger(options, 'readCount', 16, { min: 1 }),
      blockMs: readInteger(options, 'blockMs', 1000, { min: 1 }),
      failAfterMs: this.#failAfterMs,
      scheduler,
      duplicate: () => this.duplicate(),
      listen: (channel, listener, subscribed) => this.#listen(channel, listener, subscribed),
      whenReady: (callback) => {
        this.#readyWaiters.add(callback);
        return () => this.#readyWaiters.delete(callback);
      },
    };
    this.client.on('ready', this.#ready);
    // Loaded before any command, so that no EVALSHA misses and the commands of this connection
    // run in the order sent (a writer's OPEN before a read of the same run).
    for (const each of RUN_SCRIPTS) this.client.script('LOAD', each.lua).catch(() => {});
  }

  /** The store's settings, for the worker pool. Internal. */
  get context(): RedisRunContext {
    return this.#context;
  }

  /**
   * A new connection with the client's settings, for a blocking command (`XREAD BLOCK` holds its
   * connection until it answers). Closed by {@link close} unless you `disconnect()` it first.
   */
  duplicate(): RedisClient {
    const connection = this.#duplicateClient();
    if (this.#ownsClient) watchConnection(connection, addressOfClient(this.client), this.#failFast);
    else connection.on('error', () => {});
    connection.once('end', () => this.#connections.delete(connection));
    this.#connections.add(connection);
    return connection;
  }

  #duplicateClient(): RedisClient {
    // A blocking read waits blockMs on a live server: its bound is that plus failAfterMs.
    const commandTimeout = this.#failAfterMs + this.#context.blockMs;
    if (this.#ownsClient || !('nodes' in this.client)) {
      if ('nodes' in this.client) {
        return this.client.duplicate(undefined, {
          redisOptions: { ...this.client.options.redisOptions, commandTimeout },
        });
      }
      return this.client.duplicate({ commandTimeout, blockingTimeout: commandTimeout });
    }
    return this.client.duplicate();
  }

  /**
   * Opens the writer of run `runId` (see `RunStore.openWriter`). Besides `label`, a run may have its
   * own retention: `maxEvents`, `maxBytes` and `retainMs` (the store's by default).
   */
  openWriter(runId: string, options: RedisRunWriterOptions = {}): RunWriter {
    this.#checkRunId(runId);
    if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
    rejectUnknownOptions(options, ['label', 'maxEvents', 'maxBytes', 'retainMs']);
    if (options.label !== undefined && typeof options.label !== 'string') {
      throw optionError('label', 'a string', options.label);
    }
    const context = this.#context;
    const retention = {
      maxEvents: readInteger(options, 'maxEvents', context.maxEvents, { min: 1 }),
      maxBytes: readInteger(options, 'maxBytes', context.maxBytes, { min: 1 }),
      retainMs: readInteger(options, 'retainMs', context.retainMs, { min: 1 }),
    };
    const label = options.label === undefined ? {} : { label: options.label };
    return new RedisRunWriter({ ...context, ...retention }, runId, label);
  }

  read(runId: string, options: RunReadOptions = {}): Observable<RunRecord> {
    this.#checkRunId(runId);
    return readRun(this.#context, runId, readAfter(options));
  }

  async cancel(runId: string, reason = 'cancelled', details: CancelDetails = {}): Promise<boolean> {
    this.#checkRunId(runId);
    const keys = runKeys(this.prefix, runId);
    // The request is the sentinel's metadata: the owner ends the run with exactly that.
    const metadata = { ...details, reason };
    const sentinel = JSON.stringify([{ sequence: 0, kind: 'end', content: null, metadata, isFinal: true }]);
    const args = [JSON.stringify(metadata), keys.control, sentinel, this.#context.retainMs];
    const live = await evalScript(this.client, CANCEL, keys, args);
    return live === 1;
  }

  /** The ids of the runs whose id starts with `prefix` (a `SCAN` of every master in a Cluster). */
  async runIds(prefix: string): Promise<string[]> {
    if (typeof prefix !== 'string') throw optionError('prefix', 'a string', prefix, 'argument');
    const glob = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');
    const pattern = `${glob(this.prefix)}:{${glob(prefix)}*}:meta`;
    const nodes = 'nodes' in this.client ? this.client.nodes('master') : [this.client];
    const ids = new Set<string>();
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) ids.add(key.slice(this.prefix.length + 2, -':meta'.length - 1));
      } while (cursor !== '0');
    }
    return [...ids];
  }

  async info(runId: string): Promise<RunInfo | undefined> {
    this.#checkRunId(runId);
    const keys = runKeys(this.prefix, runId);
    const [state, next, owner, end, label, started, cancel] = await this.client.hmget(
      keys.meta,
      'state',
      'next',
      'owner',
      'end',
      'label',
      'started',
      'cancel',
    );
    if (state === null) return undefined;
    const count = Number(next ?? 0);
    const [first] = (await this.client.xrange(keys.events, '-', '+', 'COUNT', 1)) as [string, string[]][];
    let oldest = count;
    if (first !== undefined) {
      const record = decodeEntry(first[0], first[1]);
      if (record.type === 'events') oldest = (record.events[0] as { sequence: number }).sequence;
    }
    let failure: RunFailure | undefined;
    if (end === 'failed' || end === 'owner-lost') {
      const [last] = (await this.client.xrevrange(keys.events, '+', '-', 'COUNT', 1)) as [string, string[]][];
      const record = last === undefined ? undefined : decodeEntry(last[0], last[1]);
      if (record?.type === 'failure') failure = record.failure;
    }
    return {
      state: state === 'queued' ? 'queued' : state === 'ended' ? 'ended' : 'running',
      next: count,
      oldest,
      failure,
      owner: owner ?? undefined,
      label: label ?? undefined,
      startedAt: started === null ? undefined : Number(started),
      cancelRequest: cancel == null ? undefined : parseCancelRequest(cancel),
    };
  }

  /**
   * The run's newest record (see `RunStore.lastRecord`): the lease's verdict (the `OWNER_LOST`
   * script a follower runs), then `XREVRANGE … COUNT 1` on the command connection.
   */
  async lastRecord(runId: string): Promise<LastRecord | undefined> {
    this.#checkRunId(runId);
    const keys = runKeys(this.prefix, runId);
    const verdict = await judgeOwner(this.client, keys, runId, this.#context.retainMs);
    if (verdict === 'GONE') throw runNotFound(runId);
    const [last] = (await this.client.xrevrange(keys.events, '+', '-', 'COUNT', 1)) as [string, string[]][];
    if (last === undefined) return undefined;
    const record = decodeEntry(last[0], last[1]);
    if (record.type === 'failure') return record;
    const event = record.type === 'events' ? record.events.at(-1) : undefined;
    return event === undefined ? undefined : { type: 'event', event };
  }

  /** How long a run stays readable after its end, in ms (the `retainMs` option). */
  get retainMs(): number {
    return this.#context.retainMs;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#channels.clear();
    this.#readyWaiters.clear();
    this.client.off('ready', this.#ready);
    for (const connection of [...this.#connections]) connection.disconnect();
    this.#connections.clear();
    this.#subscriber = undefined;
    // A server that is gone would hold QUIT until the failure bound: just close the socket then.
    if (this.#ownsClient) {
      if (this.client.status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
      else this.client.disconnect();
    }
  }

  #checkRunId(runId: string): void {
    if (!isRunId(runId)) {
      throw optionError('runId', 'a run id (1-200 letters, digits, `.`, `_`, `:` or `-`)', runId, 'argument');
    }
    if (this.#closed) {
      throw new RunStoreError('RUN_STORE_FAILED', 'The Redis run store is closed', { info: { runId } });
    }
  }

  #listen(channel: string, listener: (message: string) => void, subscribed?: () => void): () => void {
    let entry = this.#channels.get(channel);
    if (entry === undefined) {
      if (this.#subscriber === undefined) {
        const subscriber = this.duplicate();
        subscriber.on('message', (from: string, message: string) => {
          for (const each of [...(this.#channels.get(from)?.listeners ?? [])]) each(message);
        });
        this.#subscriber = subscriber;
      }
      // A failed SUBSCRIBE is left to the heartbeat, which sees a missed request too.
      const confirmed = this.#subscriber.subscribe(channel).then(
        () => {},
        () => new Promise<void>(() => {}),
      );
      entry = { listeners: new Set(), subscribed: confirmed };
      this.#channels.set(channel, entry);
    }
    const { listeners } = entry;
    listeners.add(listener);
    if (subscribed !== undefined) {
      void entry.subscribed.then(() => {
        if (listeners.has(listener)) subscribed();
      });
    }
    return () => {
      const current = this.#channels.get(channel);
      if (current === undefined) return;
      current.listeners.delete(listener);
      if (current.listeners.size === 0) {
        this.#channels.delete(channel);
        this.#unsubscribe(channel);
      }
    };
  }

  /**
   * Unsubscribes from a channel nobody listens to any more. A connection that is not ready (Redis
   * died) would hold the command in its offline queue — and the process with it — for the whole
   * failure bound, even after {@link close}: it is unsubscribed once it is back instead (it
   * subscribes again to its channels when it reconnects).
   */
  #unsubscribe(channel: string): void {
    const subscriber = this.#subscriber;
    if (subscriber === undefined) return;
    if (subscriber.status === 'ready') {
      subscriber.unsubscribe(channel).catch(() => {});
      return;
    }
    subscriber.once('ready', () => {
      if (!this.#channels.has(channel)) subscriber.unsubscribe(channel).catch(() => {});
    });
  }
}
