import { LastHitMap } from '../../core/last-hit-map.js';
import { optionError } from '../../core/option-error.js';
import { failure, type HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { Macrotask } from '../scheduler/macrotask.js';
import { createMacrotaskScheduler, type MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';
import { CallRegistry } from './call-registry.js';
import type { Host } from './host.js';
import type { HostConnection } from './host-connection.js';
import type { HostDelivery } from './host-delivery.js';
import type { HostLogger } from './host-logger.js';
import type { HostOptions } from './host-options.js';
import type { HostcallHandler } from './hostcall-handler.js';
import { openHostStream } from './open-host-stream.js';
import { readCallId } from './read-call-id.js';
import { readHostOptions } from './read-host-options.js';
import { runHandler } from './run-handler.js';
import type { HostcallContext, StreamProducer } from './stream-producer.js';
import { toFailure } from './to-failure.js';
import { type ValidatedHostcall, validateHostcall } from './validate-hostcall.js';

/**
 * Creates the host of the hostcall protocol, streaming included (docs/protocol.md).
 *
 * `hostcall(extensionId, request)` validates the request ({@link validateHostcall}) and dispatches by `kind`:
 * - `exec` / `http` with `payload.stream === true` stream through {@link openHostStream}
 *   (bounded channel of `buffer_size`, stall timer of `stall_timeout_ms`, per-stream sequence
 *   from 0); the stream starts with no credit: the extension pulls (`connection.pull`);
 * - every other call (other kinds ignore `stream`, `buffer_size` and `stall_timeout_ms`)
 *   completes with one `Success` / `Error` from its handler; an unhandled kind completes with
 *   `Error { code: 'UNSUPPORTED' }`;
 * - a bad request or payload completes with `Error { code: 'INVALID_REQUEST' }` naming the
 *   field, never a throw (only a request without a usable `callId` throws an
 *   `InvalidRequestError`, as there is nothing to complete); so does a `callId` the same
 *   extension has in flight.
 *
 * Calls are keyed by (extensionId, callId): extensions may reuse each other's call ids, and
 * neither can pull or cancel the other's streams. Outcomes go through the scheduler's FIFO and
 * are delivered to the extension's connection; a delivery callback that throws is reported with
 * `logger.warn` and never stops the other deliveries.
 *
 * @example
 * ```ts
 * import { connectExtension, createHost } from 'sluice/kernel';
 * const host = createHost({ logger: console });
 * const { api } = connectExtension(host, 'ext-a');
 * for await (const line of api.exec('ls', ['-la'], { stream: true })) console.log(line);
 * ```
 */
export function createHost(options: HostOptions = {}): Host {
  const { scheduler, logger, producers, handlers } = readHostOptions(options);
  const queue = scheduler ?? createMacrotaskScheduler<HostcallOutcome>();
  const deliveries = new LastHitMap<string, HostDelivery>();
  const calls = new CallRegistry();
  const complete = (extensionId: string, callId: string, outcome: HostcallOutcome): void => {
    calls.delete(extensionId, callId);
    queue.enqueue(extensionId, callId, outcome);
  };
  const parts: HostParts = { queue, logger, calls, producers, handlers, complete };
  const stats = routeDeliveries(queue, deliveries, logger);

  const host: Host = {
    scheduler: queue,
    stats,
    hostcall: (extensionId, raw) => acceptHostcall(parts, extensionId, raw),
    pull(extensionId, callId, count = 1) {
      calls.stream(extensionId, callId)?.pull(count);
    },
    cancelStream(extensionId, callId) {
      calls.stream(extensionId, callId)?.cancel('cancelled');
    },
    unloadExtension(extensionId) {
      for (const stream of calls.streams(extensionId)) stream.cancel('unloaded');
    },
    register(kind, handler) {
      if (typeof handler !== 'function') throw optionError('handler', 'a function', handler, 'argument');
      handlers.set(kind, handler as HostcallHandler);
      return () => {
        if (handlers.get(kind) === handler) handlers.delete(kind);
      };
    },
    connect: (extensionId, deliver) => connectDelivery(host, deliveries, extensionId, deliver),
    stream: (extensionId, callId) => calls.stream(extensionId, callId),
    activeStreams: (extensionId) =>
      calls
        .streams(extensionId)
        .map((stream) => ({ extensionId: stream.extensionId, callId: stream.callId })),
  };
  return host;
}

/** What the steps of a host share: its queue, its calls in flight and what serves them. */
interface HostParts {
  readonly queue: MacrotaskScheduler<HostcallOutcome>;
  readonly logger: HostLogger;
  readonly calls: CallRegistry;
  readonly producers: Readonly<Record<string, StreamProducer>>;
  readonly handlers: ReadonlyMap<string, HostcallHandler>;
  /** Frees the call id, then enqueues the call's one outcome. */
  readonly complete: (extensionId: string, callId: string, outcome: HostcallOutcome) => void;
}

/**
 * Hands each delivered task to its extension's connection; a task for an extension with none
 * is counted (`stats.undeliverable`), a connection that throws is reported and never stops the
 * deliveries after it.
 */
function routeDeliveries(
  queue: MacrotaskScheduler<HostcallOutcome>,
  deliveries: ReadonlyMap<string, HostDelivery>,
  logger: HostLogger,
): Host['stats'] {
  let undeliverable = 0;
  queue.setDelivery((task) => {
    const deliver = deliveries.get(task.extensionId);
    if (deliver === undefined) {
      undeliverable += 1;
      return;
    }
    try {
      deliver(task);
    } catch (error) {
      reportThrow(logger, task, error);
    }
  });
  return {
    get undeliverable() {
      return undeliverable;
    },
  };
}

/**
 * Logs a delivery that threw. A function of its own: the delivery above is inlined into the
 * scheduler's turn for every chunk, and what it holds counts against what else can be
 * (docs/performance.md, "Smaller hot functions").
 */
function reportThrow(logger: HostLogger, task: Macrotask<HostcallOutcome>, error: unknown): void {
  const { extensionId, callId, seq } = task;
  logger.warn(`Delivery to extension \`${extensionId}\` threw: ${String(error)}`, {
    extensionId,
    callId,
    seq,
    error,
  });
}

/** `host.hostcall`: refuses an id in flight, validates, then streams or runs the kind's handler. */
function acceptHostcall(parts: HostParts, extensionId: string, raw: unknown): void {
  const { queue, calls, complete } = parts;
  const callId = readCallId(raw);
  if (calls.has(extensionId, callId)) {
    const message = `The call id \`${callId}\` is already in flight`;
    queue.enqueue(extensionId, callId, failure('INVALID_REQUEST', message));
    return;
  }
  calls.add(extensionId, callId);
  let validated: ValidatedHostcall;
  try {
    validated = validateHostcall(raw);
  } catch (error) {
    complete(extensionId, callId, toFailure(error));
    return;
  }
  const context: HostcallContext = {
    extensionId,
    callId,
    kind: validated.request.kind,
    scheduler: queue.clock,
  };
  if (validated.stream !== undefined) {
    startStream(parts, validated, context);
    return;
  }
  const handler = parts.handlers.get(validated.request.kind);
  runHandler(handler, validated.request, context, (outcome) => complete(extensionId, callId, outcome));
}

/** Opens the call's host stream and starts its kind's producer in it. */
function startStream(
  parts: HostParts,
  { request, stream }: ValidatedHostcall,
  context: HostcallContext,
): void {
  const { queue, logger, calls, complete } = parts;
  const { extensionId, callId } = context;
  const producer = parts.producers[request.kind];
  if (producer === undefined || stream === undefined) {
    complete(extensionId, callId, failure('UNSUPPORTED', `No producer for streaming \`${request.kind}\``));
    return;
  }
  const opened = openHostStream({
    extensionId,
    callId,
    scheduler: queue,
    logger,
    bufferSize: stream.bufferSize,
    stallTimeoutMs: stream.stallTimeoutMs,
    onClosed: () => calls.delete(extensionId, callId),
  });
  calls.attach(opened);
  try {
    opened.start(producer(request.payload, context));
  } catch (error) {
    // A producer factory that throws (bad options it validates itself) ends the stream with an Error.
    complete(extensionId, callId, toFailure(error));
  }
}

/** `host.connect`: the extension's deliveries go to `deliver` until it disconnects. */
function connectDelivery(
  host: Host,
  deliveries: Map<string, HostDelivery>,
  extensionId: string,
  deliver: HostDelivery,
): HostConnection {
  deliveries.set(extensionId, deliver);
  return {
    send: (request) => host.hostcall(extensionId, request),
    pull: (callId, count) => host.pull(extensionId, callId, count),
    cancelStream: (callId) => host.cancelStream(extensionId, callId),
    disconnect: () => {
      if (deliveries.get(extensionId) === deliver) deliveries.delete(extensionId);
    },
  };
}
