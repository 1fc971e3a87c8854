import { Observable, type Subscriber } from 'rxjs';
import { deferred } from '../core/deferred.js';
import type { Demand } from '../core/demand.js';
import { RunStoreError } from '../core/errors/run-store-error.js';
import { isSluiceError } from '../core/errors/sluice-error.js';
import { demandOf } from '../core/subscriber-chain.js';
import type { RunRecord } from '../runs/run-record.js';
import { type RunSpan, startRunSpan } from '../trace/index.js';
import { redisFailure } from './connect-redis.js';
import type { RedisClient, RedisRunContext } from './redis-run-context.js';
import { decodeEntry } from './run-entry.js';
import { type RunKeys, runKeys } from './run-keys.js';
import { judgeOwner, runNotFound } from './run-scripts.js';
import { StoreRetry } from './store-retry.js';

type StreamReply = [key: string, entries: [id: string, fields: string[]][]][] | null;

/**
 * Reads run `runId` after sequence `after` (see `RunStore.read`): `XREAD … BLOCK` on a connection
 * of its own, only while the consumer's demand flows, a `gap` record before an entry past the
 * cursor, and the owner's lease judged when a block times out (docs/scaling.md, "Reading on
 * demand"). Internal: `RedisRunStore.read` returns it.
 */
export function readRun(context: RedisRunContext, runId: string, after: number): Observable<RunRecord> {
  return new Observable<RunRecord>((subscriber) => {
    const reader = new RunReader(context, runId, after, subscriber);
    reader.start();
    return () => reader.close();
  });
}

type Entries = [id: string, fields: string[]][];

/** One read of a run: its cursor, its connection, the consumer's demand, and its steps. */
class RunReader {
  readonly #context: RedisRunContext;
  readonly #runId: string;
  readonly #keys: RunKeys;
  readonly #subscriber: Subscriber<RunRecord>;
  readonly #demand: Demand | undefined;
  readonly #stopDemand: (() => void) | undefined;
  readonly #retries: StoreRetry;
  #cursor: number;
  #closed = false;
  #connection: RedisClient | undefined;
  #wake: (() => void) | undefined;
  /**
   * Set once the run is known to have ended: what is left after the cursor is read without
   * blocking, and an empty read then means nothing more will come.
   */
  #ended = false;
  /** The read's span, once the run is found ({@link followSpan}); the events it delivered. */
  #span: RunSpan | undefined;
  #delivered = 0;

  constructor(context: RedisRunContext, runId: string, after: number, subscriber: Subscriber<RunRecord>) {
    this.#context = context;
    this.#runId = runId;
    this.#keys = runKeys(context.prefix, runId);
    this.#subscriber = subscriber;
    this.#cursor = after + 1;
    this.#retries = new StoreRetry(context.scheduler, context.failAfterMs);
    this.#demand = demandOf(subscriber);
    this.#stopDemand = this.#demand?.onChange((paused) => {
      if (!paused) this.#wake?.();
    });
  }

  start(): void {
    this.#loop().then(
      () => {
        this.#span?.end('complete', { lines: this.#delivered });
        this.#subscriber.complete();
      },
      (error: unknown) => {
        if (this.#closed) return;
        const runId = this.#runId;
        const code = isSluiceError(error) ? error.code : 'RUN_STORE_FAILED';
        this.#span?.end('error', { errorType: code, message: String(error), lines: this.#delivered });
        this.#subscriber.error(
          isSluiceError(error)
            ? error
            : new RunStoreError(
                'RUN_STORE_FAILED',
                `Run ${runId}: reading from Redis failed: ${redisFailure(this.#context.client, error)}`,
                {
                  info: { runId },
                  cause: error,
                },
              ),
        );
      },
    );
  }

  close(): void {
    this.#closed = true;
    this.#span?.end('cancel', { lines: this.#delivered });
    this.#stopDemand?.();
    this.#wake?.();
    this.#connection?.disconnect();
  }

  /** Step 1: is there a run, and anything after the cursor? Step 2: read until its end. */
  async #loop(): Promise<void> {
    const [state, next, end, traceparent, tracestate] = await this.#context.client.hmget(
      this.#keys.meta,
      'state',
      'next',
      'end',
      'traceparent',
      'tracestate',
    );
    if (state === null) throw runNotFound(this.#runId);
    if (!this.#closed) this.#span = followSpan(this.#runId, this.#cursor - 1, traceparent, tracestate);
    if (end === 'final' && this.#cursor >= Number(next)) return; // nothing follows the final event
    const connection = this.#context.duplicate();
    this.#connection = connection;
    while (!this.#closed) {
      await this.#flowing();
      if (this.#closed) return;
      const entries = await this.#read(connection);
      if (this.#closed) return;
      if (entries === undefined) continue; // a failover: read again from the cursor
      if (entries.length === 0) {
        if (this.#ended) return;
        await this.#judgeOwner();
        continue;
      }
      if (await this.#deliver(entries)) return;
    }
  }

  /** Waits while the consumer's demand is paused. */
  async #flowing(): Promise<void> {
    while (this.#demand?.paused === true && !this.#closed) {
      const wake = deferred<void>();
      this.#wake = wake.resolve;
      await wake.promise;
      this.#wake = undefined;
    }
  }

  /** One `XREAD` from the cursor (blocking until the run has ended); `undefined` after a failover. */
  async #read(connection: RedisClient): Promise<Entries | undefined> {
    const { readCount, blockMs } = this.#context;
    const from = `${this.#cursor}-0`;
    const events = this.#keys.events;
    try {
      const reply = (await (this.#ended
        ? connection.xread('COUNT', readCount, 'STREAMS', events, from)
        : connection.xread('COUNT', readCount, 'BLOCK', blockMs, 'STREAMS', events, from))) as StreamReply;
      this.#retries.succeeded();
      return reply?.[0]?.[1] ?? [];
    } catch (error) {
      // A failover (a Cluster's master died): read again from the cursor, within failAfterMs.
      if (this.#closed || !StoreRetry.retryable(error, connection) || !this.#retries.failed()) throw error;
      await this.#retries.pause();
      return undefined;
    }
  }

  /** A block timed out with nothing new: end the run with OWNER_LOST if its lease has expired. */
  async #judgeOwner(): Promise<void> {
    const { client, retainMs } = this.#context;
    const verdict = await judgeOwner(client, this.#keys, this.#runId, retainMs);
    if (verdict === 'GONE') throw runNotFound(this.#runId);
    // Ended since the read timed out — by another follower's OWNER_LOST verdict, or by the owner's
    // final event: its last entries are still to be read.
    if (verdict === 'ended') this.#ended = true;
  }

  /** Passes entries on as records (a gap first where entries were trimmed); `true` at the run's end. */
  async #deliver(entries: Entries): Promise<boolean> {
    const subscriber = this.#subscriber;
    for (const [id, fields] of entries) {
      await this.#flowing();
      if (this.#closed) return true;
      const record = decodeEntry(id, fields);
      if (record.type === 'failure') {
        subscriber.next(record);
        return true;
      }
      const cursor = this.#cursor;
      const first = (record.events[0] as { sequence: number }).sequence;
      if (first > cursor) subscriber.next({ type: 'gap', from: cursor, to: first - 1 });
      const events = first < cursor ? record.events.slice(cursor - first) : record.events;
      if (events.length === 0) continue;
      const last = events[events.length - 1] as { sequence: number; isFinal: boolean };
      this.#cursor = last.sequence + 1;
      this.#delivered += events.length;
      subscriber.next({ type: 'events', events });
      if (last.isFinal) return true;
    }
    return false;
  }
}

/**
 * The span of one read of a run (consumer, `follow run`), linked to the trace context the run was
 * written in: a link, not a parent (docs/scaling.md, "Tracing").
 */
function followSpan(
  runId: string,
  after: number,
  traceparent: string | null | undefined,
  tracestate: string | null | undefined,
): RunSpan {
  const carrier = traceparent ? { traceparent, ...(tracestate ? { tracestate } : {}) } : undefined;
  return startRunSpan(
    'follow',
    'follow run',
    { 'sluice.run.id': runId, 'sluice.run.after': after },
    { spanKind: 'consumer', ...(carrier === undefined ? {} : { links: [carrier] }) },
  );
}
