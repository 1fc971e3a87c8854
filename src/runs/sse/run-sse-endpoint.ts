import type { IncomingMessage, ServerResponse } from 'node:http';
import { asyncScheduler } from 'rxjs';
import { optionError } from '../../core/option-error.js';
import { readInteger } from '../../core/read-integer.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import type { RunStore } from '../run-store.js';
import { type RunSseOptions, SseClient } from './sse-client.js';
import { acceptSseGet, readLastEventId, sseResumeRefusal } from './sse-resume.js';
import { nodeResponseSink, readableStreamSink, type SseSink } from './sse-sink.js';

export type { RunSseOptions } from './sse-client.js';

/** What {@link runSseEndpoint} returns. */
export interface RunSseEndpoint {
  /** `GET` follows the run (resuming after `Last-Event-ID` / `?lastEventId=`), `DELETE` cancels it. */
  serve(runId: string, req: IncomingMessage, res: ServerResponse): void;
  /** The fetch-style `GET`: a `Response` whose body is the run's event stream. */
  toResponse(runId: string, request?: Request, highWaterMark?: number): Promise<Response>;
}

/**
 * Server-Sent Events (docs/sse.md) served from a {@link RunStore} by *any* instance reaching it: a
 * reconnect resumes exactly, a `DELETE` anywhere reaches the owner. `GET`: `204` when the client
 * has the final event, `400` for a bad or future id; `DELETE`: `409` once ended; `404` if unknown.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { runSseEndpoint } from 'sluice';
 * import { RedisRunStore } from 'sluice/redis';
 * const endpoint = runSseEndpoint(new RedisRunStore({ url: process.env.REDIS_URL! }));
 * createServer((req, res) => {
 *   const match = /^\/runs\/([\w.:-]+)\/events/.exec(req.url ?? '');
 *   if (match) endpoint.serve(match[1]!, req, res);
 *   else res.writeHead(404).end();
 * }).listen(8080);
 * ```
 */
export function runSseEndpoint(store: RunStore, options: RunSseOptions = {}): RunSseEndpoint {
  if (typeof store !== 'object' || store === null || typeof store.read !== 'function') {
    throw optionError('store', 'a RunStore', store, 'argument');
  }
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['heartbeatMs', 'stallTimeoutMs', 'retryMs', 'scheduler']);
  const heartbeatMs = readInteger(options, 'heartbeatMs', 15_000);
  const stallTimeoutMs = readInteger(options, 'stallTimeoutMs', 30_000);
  const retryMs = readInteger(options, 'retryMs', 1000);
  const scheduler = options.scheduler ?? asyncScheduler;
  if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
    throw optionError('scheduler', 'a SchedulerLike', scheduler);
  }

  const config = { heartbeatMs, stallTimeoutMs, retryMs, scheduler };
  const check = (runId: string, lastEventId: number | undefined) => refusalOf(store, runId, lastEventId);
  const stream = (runId: string, sink: SseSink, lastEventId: number | undefined): void => {
    const after = lastEventId ?? -1;
    new SseClient(store, runId, sink, after + 1, config, () => {});
  };

  return {
    serve: (runId, req, res) => {
      const answer = (status: number, message = '') =>
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(message);
      const get = acceptSseGet(req, res, () => cancelRun(store, runId, answer));
      if (get === undefined) return;
      const { lastEventId } = get;
      check(runId, lastEventId).then(
        (refusal) => {
          if (refusal !== undefined) answer(refusal.status, refusal.message);
          else stream(runId, nodeResponseSink(res), lastEventId);
        },
        (error: unknown) => answer(503, (error as Error).message),
      );
    },
    toResponse: async (runId, request, highWaterMark = 16) => {
      let lastEventId: number | undefined;
      try {
        lastEventId = readLastEventId(request?.headers.get('last-event-id'), request?.url);
      } catch (error) {
        return new Response((error as Error).message, { status: 400 });
      }
      const refusal = await check(runId, lastEventId);
      if (refusal !== undefined) {
        return new Response(refusal.status === 204 ? null : refusal.message, { status: refusal.status });
      }
      const { stream: body, sink } = readableStreamSink(highWaterMark);
      stream(runId, sink, lastEventId);
      return new Response(body, {
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
        },
      });
    },
  };
}

/** Why a request for `runId` after `lastEventId` gets no stream (`undefined`: it does). */
async function refusalOf(
  store: RunStore,
  runId: string,
  lastEventId: number | undefined,
): Promise<{ status: number; message: string } | undefined> {
  const info = await store.info(runId);
  if (info === undefined) return { status: 404, message: `Run ${runId} does not exist` };
  const state = { ended: info.state === 'ended', failed: info.failure !== undefined, next: info.next };
  return sseResumeRefusal(state, lastEventId, `run ${runId}`);
}

/** `DELETE`: `204` when it reached a live run, `409` when the run had ended, `404` when unknown. */
function cancelRun(store: RunStore, runId: string, answer: (status: number, message?: string) => void): void {
  store.cancel(runId).then(
    async (live) => {
      if (live) return answer(204);
      return answer((await store.info(runId)) === undefined ? 404 : 409, `Run ${runId} is not running`);
    },
    (error: unknown) => answer(503, (error as Error).message),
  );
}
