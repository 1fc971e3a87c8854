import type { Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { deferred } from '../core/deferred.js';
import { Valve } from '../core/demand.js';
import { OwnerLostError } from '../core/errors/owner-lost-error.js';
import { RunStoreError } from '../core/errors/run-store-error.js';
import { SequenceError, sequenceViolation } from '../core/errors/sequence-error.js';
import { toRunFailure } from '../runs/run-failure.js';
import type { CancelDetails, RunWriter, RunWriterOptions } from '../runs/run-store.js';
import { activeCarrier } from '../trace/trace-context.js';
import { redisFailure } from './connect-redis.js';
import type { RedisRunContext } from './redis-run-context.js';
import { encodeBatch, parseCancelRequest } from './run-entry.js';
import { type RunKeys, runKeys } from './run-keys.js';
import { APPEND, evalScript, FAIL, HEARTBEAT, OPEN } from './run-scripts.js';
import { StoreRetry } from './store-retry.js';

/** One append of consecutive events, as sent (and, if Redis lacked the script, sent again). */
interface Batch {
  readonly first: number;
  readonly count: number;
  readonly payload: string;
  readonly final: boolean;
}

/**
 * The writer of one run on Redis Streams: batches, in-flight bound, heartbeat and resends as
 * docs/scaling.md, "Appending with demand" says. A lost batch is `RUN_STORE_FAILED`, never a
 * silent gap.
 */
export class RedisRunWriter implements RunWriter {
  readonly runId: string;
  readonly ended: Promise<void>;
  readonly #context: RedisRunContext;
  readonly #keys: RunKeys;
  readonly #valve = new Valve();
  #pending: ChunkEvent<unknown>[] = [];
  #pendingBytes = 0;
  #inFlight = 0;
  #next = 0;
  #finalQueued = false;
  #failure: string | undefined;
  #failureSent = false;
  #done = false;
  #flushQueued = false;
  /**
   * Batches to send again, in order, once nothing is in flight: Redis did not have the append
   * script cached (`NOSCRIPT`, a new or restarted server), or refused a batch that had overtaken
   * one of those. The script applies nothing out of order, so a resend in order is exact.
   */
  #retry: Batch[] = [];
  /** The budget of tries while Redis fails over (a Cluster's master died): `failAfterMs`. */
  readonly #retries: StoreRetry;
  #retryPending = false;
  /**
   * Set once Redis acknowledged the run's OPEN: batches wait for it, so that none can reach a
   * Cluster node before the run exists there (its scripts may not be cached there yet, and a
   * script sent again after `NOSCRIPT` could overtake the OPEN).
   */
  #opened = false;
  /** Events Redis has acknowledged: a batch that starts here and is refused as ahead means loss. */
  #acknowledged = 0;
  #heartbeat: Subscription | undefined;
  #beating = false;
  #stopWaiting: () => void = () => {};
  #stopListening: () => void = () => {};
  readonly #cancelListeners = new Set<(reason: string, details: CancelDetails) => void>();
  #cancelled = false;
  readonly #ended = deferred<void>();

  constructor(context: RedisRunContext, runId: string, options: RunWriterOptions = {}) {
    this.#context = context;
    this.runId = runId;
    this.#keys = runKeys(context.prefix, runId);
    this.#retries = new StoreRetry(context.scheduler, context.failAfterMs);
    this.ended = this.#ended.promise;
    this.ended.catch(() => {}); // the caller may not await it; its rejection is still delivered
    // A cancel published before Redis confirmed the subscription was missed, but is recorded in the
    // run's meta (see CANCEL): one look once subscribed, so that it acts now, not at the next heartbeat.
    this.#stopListening = context.listen(
      this.#keys.control,
      (request) => this.#cancel(request),
      () => {
        if (this.#cancelled || this.#done) return;
        context.client.hget(this.#keys.meta, 'cancel').then(
          (request) => {
            if (request !== null) this.#cancel(request);
          },
          () => {}, // the heartbeat looks again
        );
      },
    );
    // The trace the run is written in (the worker's span of a job, the TRACEPARENT of `sluice
    // exec --redis`): stored with the run, for its followers' spans to link to.
    const carrier = activeCarrier();
    this.#open([options.label ?? '', carrier?.traceparent ?? '', carrier?.tracestate ?? '']);
    const every = Math.max(1, Math.floor(context.leaseMs / 3));
    const writer = this;
    this.#heartbeat = context.scheduler.schedule(function () {
      writer.#beat();
      this.schedule(undefined, every);
    }, every);
  }

  /** Takes the run (the OPEN script), trying again while a Cluster fails over; then the batches go. */
  #open(described: readonly [label: string, traceparent: string, tracestate: string]): void {
    const context = this.#context;
    const args = [
      context.owner,
      context.leaseMs,
      this.#ttl(),
      Math.round(context.scheduler.now()),
      ...described,
    ];
    this.#script(OPEN, args).then(
      () => {
        this.#opened = true;
        this.#flush();
      },
      (error: unknown) => {
        // A retried OPEN that had been applied before its connection closed finds the run ours.
        if (this.#done) return;
        if (StoreRetry.retryable(error, this.#context.client) && this.#retries.failed()) {
          void this.#retries.pause().then(() => this.#open(described));
        } else this.#fail(error);
      },
    );
  }

  get demand(): Valve {
    return this.#valve;
  }

  append(event: ChunkEvent<unknown>): void {
    const finished = this.#finalQueued || this.#failure !== undefined || this.#done;
    const violation = sequenceViolation(this.#next, event.sequence, finished);
    if (violation !== undefined) throw violation;
    this.#next += 1;
    this.#pending.push(event);
    this.#pendingBytes += typeof event.content === 'string' ? event.content.length + 64 : 256;
    if (event.isFinal) this.#finalQueued = true;
    this.#scheduleFlush();
    this.#updateDemand();
  }

  fail(error: unknown): void {
    if (this.#finalQueued || this.#failure !== undefined || this.#done) return;
    this.#failure = JSON.stringify(toRunFailure(error));
    this.#scheduleFlush();
  }

  onCancel(listener: (reason: string, details: CancelDetails) => void): () => void {
    this.#cancelListeners.add(listener);
    return () => this.#cancelListeners.delete(listener);
  }

  close(): void {
    this.#cancelListeners.clear();
    this.#stop();
  }

  #ttl(): number {
    return this.#context.retainMs + this.#context.leaseMs;
  }

  #script(script: typeof APPEND, args: readonly (string | number)[]): Promise<unknown> {
    return evalScript(this.#context.client, script, this.#keys, args);
  }

  #scheduleFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // One microtask: the events a producer emits synchronously (the lines of one read) go out
    // in one batch.
    queueMicrotask(() => {
      this.#flushQueued = false;
      this.#flush();
    });
  }

  #flush(): void {
    const context = this.#context;
    if (!this.#opened) return;
    if (this.#retry.length > 0) {
      if (this.#inFlight === 0 && !this.#done && !this.#retryPending) {
        const retry = this.#retry.sort((a, b) => a.first - b.first);
        this.#retry = [];
        for (const batch of retry) this.#send(batch, true);
      }
      this.#updateDemand();
      return;
    }
    while (!this.#done && this.#inFlight < context.maxInFlight && this.#pending.length > 0) {
      let count = 0;
      let bytes = 0;
      while (
        count < this.#pending.length &&
        count < context.maxBatchEvents &&
        bytes < context.maxBatchBytes
      ) {
        const event = this.#pending[count] as ChunkEvent<unknown>;
        bytes += typeof event.content === 'string' ? event.content.length + 64 : 256;
        count += 1;
      }
      const events = count === this.#pending.length ? this.#pending : this.#pending.slice(0, count);
      this.#pending = count === this.#pending.length ? [] : this.#pending.slice(count);
      this.#pendingBytes = Math.max(0, this.#pendingBytes - bytes);
      let payload: string;
      try {
        payload = encodeBatch(events);
      } catch (error) {
        this.#fail(error);
        return;
      }
      const first = (events[0] as ChunkEvent<unknown>).sequence;
      const final = (events[events.length - 1] as ChunkEvent<unknown>).isFinal;
      this.#send({ first, count: events.length, payload, final }, false);
    }
    if (!this.#done && this.#pending.length === 0 && this.#failure !== undefined && !this.#failureSent) {
      this.#failureSent = true;
      this.#script(FAIL, [context.owner, this.#failure, context.retainMs]).then(
        () => this.#finish(),
        (error: unknown) => this.#fail(error),
      );
    }
    this.#updateDemand();
  }

  /** Sends one batch (pipelined): `EVALSHA`, or `EVAL` on a resend (which caches the script again). */
  #send(batch: Batch, resend: boolean): void {
    const context = this.#context;
    const keys = this.#keys;
    const args = [
      context.owner,
      batch.first,
      batch.count,
      batch.payload,
      batch.final ? 1 : 0,
      context.maxEvents,
      this.#ttl(),
      context.retainMs,
      context.maxBytes,
    ];
    const call = resend
      ? context.client.eval(APPEND.lua, 3, keys.meta, keys.events, keys.lease, ...args)
      : context.client.evalsha(APPEND.sha, 3, keys.meta, keys.events, keys.lease, ...args);
    this.#inFlight += 1;
    call.then(
      (reply) => {
        this.#inFlight -= 1;
        this.#retries.succeeded();
        this.#acknowledged = Math.max(this.#acknowledged, Number(reply));
        if (batch.final) this.#finish();
        else {
          this.#flush();
          this.#updateDemand();
        }
      },
      (error: unknown) => {
        this.#inFlight -= 1;
        if (this.#done) return;
        const message = error instanceof Error ? error.message : String(error);
        // NOSCRIPT, or a batch that overtook one which is to be sent again (refused, nothing
        // applied): Redis holds everything this writer had acknowledged, an earlier batch is missing.
        const ahead = /SEQUENCE (\d+) (\d+)/.exec(message);
        const overtook =
          ahead !== null && Number(ahead[2]) > Number(ahead[1]) && Number(ahead[1]) >= this.#acknowledged;
        if (message.startsWith('NOSCRIPT') || overtook) {
          this.#retry.push(batch);
          this.#flush();
          return;
        }
        // A lost connection or a failover: send it again in a moment, within failAfterMs.
        if (StoreRetry.retryable(error, this.#context.client) && this.#retries.failed()) {
          this.#retry.push(batch);
          this.#retryLater();
          return;
        }
        this.#fail(error);
      },
    );
  }

  #retryLater(): void {
    if (this.#retryPending) return;
    this.#retryPending = true;
    void this.#retries.pause().then(() => {
      this.#retryPending = false;
      this.#flush();
    });
  }

  #updateDemand(): void {
    const context = this.#context;
    const full =
      (!this.#opened || this.#inFlight >= context.maxInFlight) &&
      (this.#pending.length >= context.maxBatchEvents || this.#pendingBytes >= context.maxBatchBytes);
    if (full && !this.#done) this.#valve.pause();
    else this.#valve.resume();
  }

  #beat(): void {
    if (this.#beating || this.#done) return;
    const context = this.#context;
    // A command sent while the connection is down waits in ioredis's offline queue — holding the
    // process — for the whole failure bound: beat once it is back instead.
    if (context.client.status !== 'ready') {
      this.#beating = true;
      this.#stopWaiting = context.whenReady(() => {
        this.#beating = false;
        this.#beat();
      });
      return;
    }
    this.#beating = true;
    this.#script(HEARTBEAT, [context.owner, context.leaseMs, this.#ttl()]).then(
      (reply) => {
        this.#beating = false;
        if (typeof reply === 'string' && reply !== '') this.#cancel(reply);
      },
      (error: unknown) => {
        this.#beating = false;
        // The writer's own commands report a lost connection; the heartbeat only reports what
        // only it can see: the run ended or taken by somebody else.
        if (error instanceof Error && /^(ERR )?(ENDED|NOTOWNER|GONE)/.test(error.message)) this.#fail(error);
      },
    );
  }

  /** `request` is the sentinel's metadata as JSON (`{ ...details, reason }`; see `RedisRunStore.cancel`). */
  #cancel(request: string): void {
    if (this.#cancelled || this.#done) return;
    this.#cancelled = true;
    const { reason, ...details } = parseCancelRequest(request);
    for (const listener of [...this.#cancelListeners]) listener(reason, details);
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#stop();
    this.#ended.resolve();
  }

  #fail(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#stop();
    this.#pending = [];
    this.#ended.reject(this.#translate(error));
  }

  #stop(): void {
    this.#heartbeat?.unsubscribe();
    this.#heartbeat = undefined;
    this.#stopWaiting();
    this.#stopListening();
    this.#stopListening = () => {};
    this.#valve.resume();
  }

  #translate(error: unknown): unknown {
    const runId = this.runId;
    // Redis prefixes a script's one-word error (`GONE`) with `ERR `.
    const message = (error instanceof Error ? error.message : String(error)).replace(/^ERR /, '');
    const info = { runId };
    if (message.startsWith('ENDED owner-lost') || message.startsWith('NOTOWNER')) {
      return new OwnerLostError(
        { runId, owner: this.#context.owner },
        `Run ${runId}: this writer (${this.#context.owner}) was declared lost — its lease expired — and the run was ended without it`,
      );
    }
    if (message.startsWith('EXISTS')) {
      return new RunStoreError('RUN_EXISTS', `Run ${runId} already exists (${message.slice(7)})`, { info });
    }
    if (message.startsWith('ENDED')) {
      return new RunStoreError(
        'RUN_EXISTS',
        `Run ${runId} was ended by somebody else (${message.slice(6)})`,
        {
          info,
        },
      );
    }
    if (message.startsWith('GONE')) {
      return new RunStoreError(
        'RUN_STORE_FAILED',
        `Run ${runId} vanished from Redis while it was written (a restart without persistence, or its keys were deleted)`,
        { info },
      );
    }
    if (message.startsWith('SEQUENCE')) {
      const [, stored, sent] = message.split(' ');
      return new RunStoreError(
        'RUN_STORE_FAILED',
        `Run ${runId}: Redis holds events up to ${Number(stored) - 1} but this writer had sent up to ${Number(sent) - 1} — acknowledged events were lost (a restart without fsync?)`,
        { info },
      );
    }
    if (error instanceof SequenceError || error instanceof TypeError) return error;
    const failure = redisFailure(this.#context.client, error);
    return new RunStoreError('RUN_STORE_FAILED', `Run ${runId}: Redis failed: ${failure}`, {
      info,
      cause: error,
    });
  }
}
