import { z } from 'zod';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import { readOption } from '../../core/read-option.js';
import type { HostcallKind } from '../protocol/hostcall-kind.js';
import { failure, type HostcallOutcome, success } from '../protocol/hostcall-outcome.js';
import { type HostcallRequest, parseHostcallRequest } from '../protocol/hostcall-request.js';
import type { JsonValue } from '../protocol/json-value.js';
import { parseRequestPart } from '../protocol/parse-request-part.js';
import { parseStreamOptions } from '../protocol/stream-options.js';
import type { Macrotask } from '../scheduler/macrotask.js';
import { createMacrotaskScheduler, type MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';
import { defaultHandlers } from './default-handlers.js';
import { defaultProducers } from './default-producers.js';
import { execPayloadSchema } from './exec-payload.js';
import type { HostLogger } from './host-logger.js';
import { type HostStream, openHostStream } from './host-stream.js';
import type { HostcallHandler } from './hostcall-handler.js';
import { httpPayloadSchema } from './http-payload.js';
import type { HostcallContext, StreamProducer } from './stream-producer.js';

/**
 * Options of {@link createHost}.
 *
 * @example
 * ```ts
 * const options: HostOptions = { scheduler: createMacrotaskScheduler({ driver: 'manual' }), logger: console };
 * ```
 */
export interface HostOptions {
  /** The macrotask scheduler completions go through. Default: a real-time one (`createMacrotaskScheduler()`). */
  readonly scheduler?: MacrotaskScheduler<HostcallOutcome>;
  /** Where stall warnings go. Default `console`. */
  readonly logger?: HostLogger;
  /** Streaming producers of `exec` / `http` (default: the `exec` and `http` sources). */
  readonly producers?: Partial<Record<'exec' | 'http', StreamProducer>>;
  /** Handlers of non-streaming kinds (default: `exec` and `http` run to completion; others unhandled). */
  readonly handlers?: Partial<Record<HostcallKind, HostcallHandler>>;
}

/**
 * Receives the macrotasks of one extension, in `seq` order (in-process: `bridge.completeHostcall`).
 *
 * @example
 * ```ts
 * const deliver: HostDelivery = (task) => bridge.completeHostcall(task.callId, task.outcome);
 * ```
 */
export type HostDelivery = (task: Macrotask<HostcallOutcome>) => void;

/**
 * One extension's link to the host: what its bridge calls.
 *
 * @example
 * ```ts
 * const connection = host.connect('ext-a', deliver);
 * connection.send({ callId: 'hc-1', kind: 'tool', payload: {} });
 * ```
 */
export interface HostConnection {
  /** Starts a hostcall (`host.hostcall(extensionId, request)`). */
  send(request: unknown): void;
  /** Asks for `count` more chunks of a stream (`Infinity`: flowing). */
  pull(callId: string, count: number): void;
  /** Cancels a stream (`host.cancelStream`). */
  cancelStream(callId: string): void;
  /** Stops delivering to this extension (later outcomes for it are dropped and counted). */
  disconnect(): void;
}

/**
 * The host side of seed 002 (see {@link createHost}).
 *
 * @example
 * ```ts
 * host.hostcall('ext-a', { callId: 'hc-1', kind: 'exec', payload: { cmd: 'ls', stream: true } });
 * host.pull('hc-1', Infinity);
 * ```
 */
export interface Host {
  readonly scheduler: MacrotaskScheduler<HostcallOutcome>;
  /** Outcomes dropped because their extension had no delivery connected. */
  readonly stats: { readonly undeliverable: number };
  /** Starts a hostcall of `extensionId`; its outcome(s) arrive through the scheduler. Never throws for a bad payload. */
  hostcall(extensionId: string, request: unknown): void;
  /** Gives a stream `count` more credit (default 1; `Infinity` = flowing). Unknown/finished call: no-op. */
  pull(callId: string, count?: number): void;
  /** Cancels a stream: kill the producer, drop the channel, enqueue the null final chunk. Unknown/finished: no-op. */
  cancelStream(callId: string): void;
  /** Cancels every active stream of `extensionId`; other extensions' streams are untouched. */
  unloadExtension(extensionId: string): void;
  /** Serves a non-streaming kind (replacing the previous handler); returns a function that removes it. */
  register(kind: HostcallKind, handler: HostcallHandler): () => void;
  /** Connects the delivery of an extension's outcomes and returns its side of the link. */
  connect(extensionId: string, deliver: HostDelivery): HostConnection;
  /** The live stream of `callId`, if any (for inspection). */
  stream(callId: string): HostStream | undefined;
  /** The call ids of the active streams, oldest first. */
  activeStreams(): readonly string[];
}

const functionSchema = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function');
const objectSchema = z.custom<object>((value) => typeof value === 'object' && value !== null);

/**
 * Creates the host of seed 002, "Streaming hostcall results".
 *
 * `hostcall(extensionId, request)` validates the request and dispatches by `kind`:
 * - `exec` / `http` with `payload.stream === true` stream through {@link openHostStream}
 *   (bounded channel of `buffer_size`, stall timer of `stall_timeout_ms`, per-stream sequence
 *   from 0); the stream starts with no credit: the extension pulls (`connection.pull`);
 * - every other call (any kind, `stream` ignored) completes with one `Success` / `Error` from
 *   its handler; an unhandled kind completes with `Error { code: 'UNSUPPORTED' }`;
 * - a bad request or payload completes with `Error { code: 'INVALID_REQUEST' }` naming the
 *   field, never a throw (only a request without a usable `callId` throws, as there is nothing
 *   to complete); so does a `callId` already in flight.
 *
 * Outcomes go through the scheduler's FIFO and are delivered to the extension's connection.
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
  const scheduler = readOption(options, 'scheduler', objectSchema, 'a MacrotaskScheduler', undefined) as
    | MacrotaskScheduler<HostcallOutcome>
    | undefined;
  const logger = readOption(options, 'logger', objectSchema, 'a logger', console) as HostLogger;
  const producers: Record<string, StreamProducer> = {
    ...defaultProducers,
    ...(readOption(options, 'producers', objectSchema, 'an object of producers', {}) as object),
  };
  const handlers = new Map<string, HostcallHandler>(
    Object.entries({
      ...defaultHandlers,
      ...(readOption(options, 'handlers', objectSchema, 'an object of handlers', {}) as object),
    }),
  );
  for (const [kind, producer] of Object.entries(producers)) {
    if (!functionSchema.safeParse(producer).success) {
      throw new TypeError(`Expected the \`producers.${kind}\` option to be a function`);
    }
  }
  const queue = scheduler ?? createMacrotaskScheduler<HostcallOutcome>();
  const deliveries = new Map<string, HostDelivery>();
  const streams = new Map<string, HostStream>();
  const calls = new Set<string>();
  let undeliverable = 0;

  queue.setDelivery((task) => {
    const deliver = deliveries.get(task.extensionId);
    if (deliver === undefined) undeliverable += 1;
    else deliver(task);
  });

  const complete = (extensionId: string, callId: string, outcome: HostcallOutcome): void => {
    calls.delete(callId);
    queue.enqueue(extensionId, callId, outcome);
  };

  const runHandler = (request: HostcallRequest, context: HostcallContext): void => {
    const { extensionId, callId } = context;
    const handler = handlers.get(request.kind);
    if (handler === undefined) {
      complete(
        extensionId,
        callId,
        failure('UNSUPPORTED', `No handler for hostcall kind \`${request.kind}\``),
      );
      return;
    }
    let result: ReturnType<HostcallHandler>;
    try {
      result = handler(request.payload, context);
    } catch (error) {
      complete(extensionId, callId, toFailure(error));
      return;
    }
    if (typeof (result as { then?: unknown } | null)?.then !== 'function') {
      complete(extensionId, callId, success(result as JsonValue));
      return;
    }
    Promise.resolve(result).then(
      (value) => complete(extensionId, callId, success(value)),
      (error: unknown) => complete(extensionId, callId, toFailure(error)),
    );
  };

  const host: Host = {
    scheduler: queue,
    stats: {
      get undeliverable() {
        return undeliverable;
      },
    },
    hostcall(extensionId, raw) {
      const callId = (raw as { callId?: unknown } | null)?.callId;
      if (typeof callId !== 'string' || callId === '') {
        throw new TypeError('Expected the hostcall request to have a non-empty string `callId`');
      }
      if (calls.has(callId)) {
        queue.enqueue(
          extensionId,
          callId,
          failure('INVALID_REQUEST', `The call id \`${callId}\` is already in flight`),
        );
        return;
      }
      calls.add(callId);
      let request: HostcallRequest;
      let streaming = false;
      let stream = { bufferSize: 16, stallTimeoutMs: 30_000 };
      try {
        request = parseHostcallRequest(raw);
        if (request.kind === 'exec') parseRequestPart(execPayloadSchema, request.payload, 'payload');
        if (request.kind === 'http') parseRequestPart(httpPayloadSchema, request.payload, 'payload');
        streaming = (request.kind === 'exec' || request.kind === 'http') && request.payload.stream === true;
        if (streaming) stream = parseStreamOptions(request.payload);
      } catch (error) {
        complete(extensionId, callId, toFailure(error));
        return;
      }
      const context: HostcallContext = { extensionId, callId, kind: request.kind, scheduler: queue.clock };
      if (!streaming) {
        runHandler(request, context);
        return;
      }
      const producer = producers[request.kind];
      if (producer === undefined) {
        complete(
          extensionId,
          callId,
          failure('UNSUPPORTED', `No producer for streaming \`${request.kind}\``),
        );
        return;
      }
      const opened = openHostStream({
        extensionId,
        callId,
        scheduler: queue,
        logger,
        bufferSize: stream.bufferSize,
        stallTimeoutMs: stream.stallTimeoutMs,
        onClosed: () => {
          streams.delete(callId);
          calls.delete(callId);
        },
      });
      streams.set(callId, opened);
      try {
        opened.start(producer(request.payload, context));
      } catch (error) {
        // A producer factory that throws (bad options it validates itself) ends the stream with an Error.
        streams.delete(callId);
        complete(extensionId, callId, toFailure(error));
      }
    },
    pull(callId, count = 1) {
      streams.get(callId)?.pull(count);
    },
    cancelStream(callId) {
      streams.get(callId)?.cancel('cancelled');
    },
    unloadExtension(extensionId) {
      for (const stream of [...streams.values()]) {
        if (stream.extensionId === extensionId) stream.cancel('unloaded');
      }
    },
    register(kind, handler) {
      handlers.set(kind, functionSchema.parse(handler) as HostcallHandler);
      return () => {
        if (handlers.get(kind) === handler) handlers.delete(kind);
      };
    },
    connect(extensionId, deliver) {
      deliveries.set(extensionId, deliver);
      return {
        send: (request) => host.hostcall(extensionId, request),
        pull: (callId, count) => host.pull(callId, count),
        cancelStream: (callId) => host.cancelStream(callId),
        disconnect: () => {
          if (deliveries.get(extensionId) === deliver) deliveries.delete(extensionId);
        },
      };
    },
    stream: (callId) => streams.get(callId),
    activeStreams: () => [...streams.keys()],
  };
  return host;
}

function toFailure(error: unknown): HostcallOutcome {
  if (isSluiceError(error)) return failure(error.code, error.message);
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const code = typeof record.code === 'string' && record.code !== '' ? record.code : 'HOSTCALL_FAILED';
  return failure(code, typeof record.message === 'string' ? record.message : String(error));
}
