import { InvalidRequestError } from '../../core/errors/invalid-request-error.js';
import { optionError } from '../../core/option-error.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import { LastHitMap } from '../last-hit-map.js';
import { failure, type HostcallOutcome, success, toFailure } from '../protocol/hostcall-outcome.js';
import {
  type HostcallKind,
  type HostcallRequest,
  parseHostcallRequest,
} from '../protocol/hostcall-request.js';
import type { JsonValue } from '../protocol/json-value.js';
import { parsePart } from '../protocol/parse-part.js';
import { parseStreamOptions, type StreamOptions } from '../protocol/stream-options.js';
import {
  createMacrotaskScheduler,
  type Macrotask,
  type MacrotaskScheduler,
} from '../scheduler/macrotask-scheduler.js';
import { CallRegistry } from './call-registry.js';
import { execHandler, execPayloadSchema, execProducer } from './exec-hostcall.js';
import type {
  Host,
  HostConnection,
  HostcallContext,
  HostcallHandler,
  HostDelivery,
  HostLogger,
  HostOptions,
  StreamProducer,
} from './host.js';
import { httpHandler, httpPayloadSchema, httpProducer } from './http-hostcall.js';
import { openHostStream } from './open-host-stream.js';

/**
 * Creates the host of the hostcall protocol, streaming included (docs/protocol.md). `exec` and
 * `http` with `stream: true` stream with no credit until the extension pulls; every other call
 * completes once from its handler (`UNSUPPORTED` without one). A bad request, or a `callId` in
 * flight, completes with `INVALID_REQUEST`; only a request without a usable `callId` throws.
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

/** Hands each task to its extension's connection; none: counted; a throw: reported, never fatal. */
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

/** Logs a delivery that threw, a call away from the delivery (docs/performance.md, "Smaller hot functions"). */
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

/** A hostcall request the host accepted, and its stream options when it streams. */
interface ValidatedHostcall {
  readonly request: HostcallRequest;
  readonly stream: StreamOptions | undefined;
}

/** Checks the envelope, then an `exec` / `http` payload; other kinds check their own payloads. */
function validateHostcall(raw: unknown): ValidatedHostcall {
  const request = parseHostcallRequest(raw);
  if (request.kind === 'exec') parsePart(execPayloadSchema, request.payload, 'payload', InvalidRequestError);
  else if (request.kind === 'http')
    parsePart(httpPayloadSchema, request.payload, 'payload', InvalidRequestError);
  else return { request, stream: undefined };
  const stream = request.payload.stream === true ? parseStreamOptions(request.payload) : undefined;
  return { request, stream };
}

/** The `callId` of a raw request: without one there is no call to complete, so this throws. */
function readCallId(raw: unknown): string {
  const callId = typeof raw === 'object' && raw !== null ? (raw as { callId?: unknown }).callId : undefined;
  if (typeof callId === 'string' && callId !== '') return callId;
  throw new InvalidRequestError({ field: 'callId', value: callId }, 'must be a non-empty string');
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

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** The options of {@link createHost}, checked and defaulted (the scheduler stays optional). */
function readHostOptions(options: HostOptions) {
  rejectUnknownOptions(options, ['scheduler', 'logger', 'producers', 'handlers']);
  const scheduler = readOption(options, 'scheduler', isObject, 'a MacrotaskScheduler', undefined) as
    | MacrotaskScheduler<HostcallOutcome>
    | undefined;
  const logger = readOption(options, 'logger', isObject, 'a logger', console) as HostLogger;
  const producers: Record<string, StreamProducer> = {
    ...defaultProducers,
    ...(readOption(options, 'producers', isObject, 'an object of producers', {}) as object),
  };
  for (const [kind, producer] of Object.entries(producers)) {
    if (typeof producer !== 'function') throw optionError(`producers.${kind}`, 'a function', producer);
  }
  const handlers = new Map<string, HostcallHandler>(
    Object.entries({
      ...defaultHandlers,
      ...(readOption(options, 'handlers', isObject, 'an object of handlers', {}) as object),
    }),
  );
  for (const [kind, handler] of handlers) {
    if (typeof handler !== 'function') throw optionError(`handlers.${kind}`, 'a function', handler);
  }
  return { scheduler, logger, producers, handlers };
}

/** `exec` and `http` run to completion; other kinds are the embedder's to register. */
const defaultHandlers: Readonly<Partial<Record<HostcallKind, HostcallHandler>>> = {
  exec: execHandler,
  http: httpHandler,
};

const defaultProducers: Readonly<Partial<Record<'exec' | 'http', StreamProducer>>> = {
  exec: execProducer,
  http: httpProducer,
};

/** Serves a non-streaming call and completes it exactly once; a synchronous answer at once. */
function runHandler(
  handler: HostcallHandler | undefined,
  request: HostcallRequest,
  context: HostcallContext,
  complete: (outcome: HostcallOutcome) => void,
): void {
  if (handler === undefined) {
    complete(failure('UNSUPPORTED', `No handler for hostcall kind \`${request.kind}\``));
    return;
  }
  let result: ReturnType<HostcallHandler>;
  try {
    result = handler(request.payload, context);
  } catch (error) {
    complete(toFailure(error));
    return;
  }
  if (typeof (result as { then?: unknown } | null)?.then !== 'function') {
    complete(success(result as JsonValue));
    return;
  }
  Promise.resolve(result).then(
    (value) => complete(success(value)),
    (error: unknown) => complete(toFailure(error)),
  );
}
