import { asyncScheduler, isObservable, type Observable, type SchedulerLike } from 'rxjs';
import { checkArgument } from '../../core/check-argument.js';
import type { ChunkEvent } from '../../core/chunk.js';
import { isSchedulerLike } from '../../core/is-scheduler-like.js';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { readInteger } from '../../core/read-integer.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import { SseStream } from './sse-stream.js';

/** Options of {@link toServerSentEvents}, checked before anything subscribes. */
export interface ToServerSentEventsOptions {
  /** Bounds of the replay log. Defaults: `maxEvents: 10_000`, `maxBytes: 8 MiB`. */
  readonly replay?: { readonly maxEvents?: number; readonly maxBytes?: number };
  /** A `:` heartbeat comment on every open connection this often, in ms. Default `15_000`; `0` = none. */
  readonly heartbeatMs?: number;
  /** A client whose socket does not drain for this long is disconnected. Default `30_000`; `0` = never. */
  readonly stallTimeoutMs?: number;
  /** Sent to each client as `retry:` (the browser's reconnection delay), in ms. Default `1000`. */
  readonly retryMs?: number;
  /** The clock of heartbeats and stall timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Serves a sequenced chunk stream over Server-Sent Events to any number of clients, with exact
 * resume: `serve(req, res)` for `node:http` (`GET` follows, `DELETE` cancels), `toResponse(request)`
 * for fetch-style servers. Each event's `id` is its `sequence`, `event` its `kind`, `data` the
 * event as JSON; `gap` and `failure` control events carry no id (docs/sse.md). The source is
 * subscribed once, lazily; see {@link SseStream} for backpressure, detach and cancel.
 *
 * @throws TypeError when `source` is not an Observable or an option is invalid
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { exec } from 'sluice/sources';
 * import { toServerSentEvents } from 'sluice/adapters';
 *
 * const run = toServerSentEvents(exec('npm', ['test'], { reject: false }), { replay: { maxEvents: 5000 } });
 * createServer((req, res) => run.serve(req, res)).listen(8080);
 * ```
 */
export function toServerSentEvents(
  source: Observable<ChunkEvent<unknown>>,
  options?: ToServerSentEventsOptions,
): SseStream {
  checkArgument(source, 'source', isObservable, 'an Observable');
  rejectUnknownOptions(options, ['replay', 'heartbeatMs', 'stallTimeoutMs', 'retryMs', 'scheduler']);
  const replay = readOption(
    options,
    'replay',
    (value) => typeof value === 'object' && value !== null,
    'an object',
    {},
  );
  rejectUnknownOptions(replay, ['maxEvents', 'maxBytes'], 'replay.');
  return new SseStream(source as Observable<ChunkEvent<unknown>>, {
    replay: {
      maxEvents: readInteger(replay, 'maxEvents', 10_000, { min: 1, prefix: 'replay.' }),
      maxBytes: readInteger(replay, 'maxBytes', 8 * 1024 * 1024, { min: 1, prefix: 'replay.' }),
    },
    heartbeatMs: readInteger(options, 'heartbeatMs', 15_000, { max: MAX_DELAY_MS }),
    stallTimeoutMs: readInteger(options, 'stallTimeoutMs', 30_000, { max: MAX_DELAY_MS }),
    retryMs: readInteger(options, 'retryMs', 1000),
    scheduler: readOption(options, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler),
  });
}
