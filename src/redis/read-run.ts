import { Observable } from 'rxjs';
import { demandOf } from '../core/demand-of.js';
import { OwnerLostError } from '../core/errors/owner-lost-error.js';
import { RunStoreError } from '../core/errors/run-store-error.js';
import { isSluiceError } from '../core/errors/sluice-error.js';
import { toRunFailure } from '../runs/run-failure.js';
import type { RunRecord } from '../runs/run-record.js';
import { evalScript } from './eval-script.js';
import type { RedisClient } from './redis-client.js';
import type { RedisRunContext } from './redis-run-context.js';
import { decodeEntry } from './run-entry.js';
import { runKeys } from './run-keys.js';
import { OWNER_LOST } from './run-scripts.js';
import { StoreRetry } from './store-retry.js';

type StreamReply = [key: string, entries: [id: string, fields: string[]][]][] | null;

/**
 * Reads run `runId` after sequence `after` (see `RunStore.read`): a loop of
 * `XREAD COUNT readCount BLOCK blockMs STREAMS <events> <cursor>-0` on a connection of its own
 * (a blocking command holds its connection), issued only while the consumer's demand flows.
 * Each entry becomes one record; an entry that starts after the cursor is preceded by a `gap`
 * record. When a block times out with nothing new, it checks the owner's lease and — if it has
 * expired — ends the run with `OWNER_LOST` for everybody (an atomic script: one follower wins).
 * Internal: `RedisRunStore.read` returns it.
 *
 * @example
 * ```ts
 * readRun(context, 'build-7', -1).subscribe((record) => console.log(record.type));
 * ```
 */
export function readRun(context: RedisRunContext, runId: string, after: number): Observable<RunRecord> {
  const keys = runKeys(context.prefix, runId);
  const notFound = () =>
    new RunStoreError('RUN_NOT_FOUND', `Run ${runId} does not exist (or its retention has passed)`, {
      info: { runId },
    });
  return new Observable<RunRecord>((subscriber) => {
    const demand = demandOf(subscriber);
    let closed = false;
    let connection: RedisClient | undefined;
    let wake: (() => void) | undefined;
    const stopDemand = demand?.onChange((paused) => {
      if (!paused) wake?.();
    });
    const flowing = async () => {
      while (demand?.paused === true && !closed) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    };
    const retries = new StoreRetry(context.scheduler, context.failAfterMs);
    const lostPayload = JSON.stringify(toRunFailure(new OwnerLostError({ runId, owner: undefined })));
    const loop = async () => {
      const [state, next, end] = await context.client.hmget(keys.meta, 'state', 'next', 'end');
      if (state === null) throw notFound();
      let cursor = after + 1;
      if (end === 'final' && cursor >= Number(next)) return; // nothing follows the final event
      connection = context.duplicate();
      // Set once the run is known to have ended: what is left after the cursor is read without
      // blocking, and an empty read then means nothing more will come.
      let ended = false;
      while (!closed) {
        await flowing();
        if (closed) return;
        const from = `${cursor}-0`;
        let reply: StreamReply;
        try {
          reply = (await (ended
            ? connection.xread('COUNT', context.readCount, 'STREAMS', keys.events, from)
            : connection.xread(
                'COUNT',
                context.readCount,
                'BLOCK',
                context.blockMs,
                'STREAMS',
                keys.events,
                from,
              ))) as StreamReply;
          retries.succeeded();
        } catch (error) {
          // A failover (a Cluster's master died): read again from the cursor, within failAfterMs.
          if (closed || !StoreRetry.retryable(error) || !retries.failed()) throw error;
          await retries.pause();
          continue;
        }
        if (closed) return;
        const entries = reply?.[0]?.[1] ?? [];
        if (entries.length === 0) {
          if (ended) return;
          const verdict = await evalScript(
            context.client,
            OWNER_LOST,
            [keys.meta, keys.events, keys.lease],
            [lostPayload, context.retainMs],
          );
          if (verdict === 'GONE') throw notFound();
          // Ended since the read timed out — by another follower's OWNER_LOST verdict, or by the
          // owner's final event: its last entries are still to be read.
          if (verdict === 'ended') ended = true;
          continue;
        }
        for (const [id, fields] of entries) {
          await flowing();
          if (closed) return;
          const record = decodeEntry(id, fields);
          if (record.type === 'failure') {
            subscriber.next(record);
            subscriber.complete();
            return;
          }
          const first = (record.events[0] as { sequence: number }).sequence;
          if (first > cursor) subscriber.next({ type: 'gap', from: cursor, to: first - 1 });
          const events = first < cursor ? record.events.slice(cursor - first) : record.events;
          if (events.length === 0) continue;
          const last = events[events.length - 1] as { sequence: number; isFinal: boolean };
          cursor = last.sequence + 1;
          subscriber.next({ type: 'events', events });
          if (last.isFinal) {
            subscriber.complete();
            return;
          }
        }
      }
    };
    loop().then(
      () => subscriber.complete(),
      (error: unknown) => {
        if (closed) return;
        subscriber.error(
          isSluiceError(error)
            ? error
            : new RunStoreError(
                'RUN_STORE_FAILED',
                `Run ${runId}: reading from Redis failed: ${String(error)}`,
                {
                  info: { runId },
                  cause: error,
                },
              ),
        );
      },
    );
    return () => {
      closed = true;
      stopDemand?.();
      wake?.();
      connection?.disconnect();
    };
  });
}
