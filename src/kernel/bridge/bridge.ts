import { SluiceError } from '../../core/errors/sluice-error.js';
import { optionError } from '../../core/option-error.js';
import { readFunction } from '../../core/read-function.js';
import type { HostDelivery } from '../host/host.js';
import { LastHitMap } from '../last-hit-map.js';
import { type HostcallOutcome, streamChunk, success } from '../protocol/hostcall-outcome.js';
import type { HostcallKind, HostcallPayload, HostcallRequest } from '../protocol/hostcall-request.js';
import type { JsonValue } from '../protocol/json-value.js';
import { fromWireNames, toWireNames } from '../protocol/wire-names.js';
import { checkHostOutcome, decodeOutcome, isScalarChunk } from './decode-outcome.js';
import { HostcallStream, type HostcallStreamLink } from './hostcall-stream.js';

/** The extension side of the hostcall protocol (see {@link createBridge}). */
export interface Bridge {
  readonly stats: BridgeStats;
  /** Hands the bridge an outcome for `callId`, as a `HostcallOutcome` or in the bridge shape. */
  completeHostcall(callId: string, outcome: unknown): void;
  /** A non-streaming hostcall: resolves with the `Success` value, rejects with a `SluiceError` carrying the `Error` code. */
  call(kind: HostcallKind, payload: HostcallPayload): Promise<JsonValue>;
  /** A streaming hostcall (`payload.stream` is set to `true`). */
  stream(kind: HostcallKind, payload: HostcallPayload): HostcallStream;
  /** Cancels a stream (docs/protocol.md, "Cancel"); unknown or finished: no-op. */
  cancelStream(callId: string): void;
  pending(): readonly string[];
}

/** Options of {@link createBridge}. */
export interface BridgeOptions extends BridgeTransport {
  /** Makes call ids. Default: `hc-1`, `hc-2`, … per bridge. */
  readonly callIds?: () => string;
}

/** What the bridge has seen, for monitoring and tests. */
export interface BridgeStats {
  /** Outcomes for a call that is unknown or already complete (dropped). */
  readonly ignored: number;
  /** Outcomes that could not be decoded (`INVALID_FRAME`). */
  readonly invalid: number;
}

/** How a bridge reaches its host (in-process: a `HostConnection` from `host.connect`, or its methods). */
export interface BridgeTransport {
  send(request: HostcallRequest): void;
  pull(callId: string, count: number): void;
  cancelStream(callId: string): void;
}

type Pending =
  | {
      readonly type: 'call';
      readonly resolve: (value: JsonValue) => void;
      readonly reject: (error: unknown) => void;
    }
  | { readonly type: 'stream'; readonly stream: HostcallStream };

/**
 * Creates the extension side of the hostcall protocol (docs/protocol.md): the outcomes the host
 * delivers, in `seq` order, settle promises and feed {@link HostcallStream}s. An outcome for an
 * unknown or completed call is counted and dropped; one that does not decode fails its call with
 * `INVALID_FRAME`. Payloads, results and chunks are renamed through docs/protocol.md, "Names on
 * the wire": TypeScript's names on this side, the wire's on the other.
 *
 * @example
 * ```ts
 * let bridge: Bridge;
 * const connection = host.connect('ext-a', (task) => bridge.completeHostcall(task.callId, task.outcome));
 * bridge = createBridge(connection);
 * const value = await bridge.call('tool', { name: 'read' });
 * ```
 */
export function createBridge(options: BridgeOptions): Bridge {
  const callIds = readCallIds(options);
  const calls = new LastHitMap<string, Pending>();
  let ignored = 0;
  let invalid = 0;

  const transport = options as BridgeTransport;

  /** Hands an outcome to its call; `decode` reads it (a throw fails the call with INVALID_FRAME). */
  const complete = <R>(callId: string, raw: R, decode: (raw: R) => HostcallOutcome): void => {
    const pending = calls.get(callId);
    if (pending === undefined) {
      ignored += 1;
      return;
    }
    let outcome: HostcallOutcome;
    try {
      outcome = decode(raw);
    } catch (error) {
      invalid += 1;
      const reason = error instanceof Error ? error.message : String(error);
      outcome = { type: 'error', code: 'INVALID_FRAME', message: reason };
      if (pending.type === 'stream') transport.cancelStream(callId);
    }
    outcome = inTypeScriptNames(outcome);
    if (pending.type === 'stream') {
      pending.stream.deliver(outcome);
      return;
    }
    calls.delete(callId);
    settleCall(pending, callId, outcome);
  };

  const bridge: Bridge = {
    stats: {
      get ignored() {
        return ignored;
      },
      get invalid() {
        return invalid;
      },
    },
    completeHostcall: (callId, raw) => complete(callId, raw, decodeOutcome),
    call(kind, payload) {
      const callId = callIds();
      return new Promise<JsonValue>((resolve, reject) => {
        calls.set(callId, { type: 'call', resolve, reject });
        transport.send({ callId, kind, payload: toWireNames(payload) });
      });
    },
    stream(kind, fields) {
      const callId = callIds();
      const payload = toWireNames(fields);
      const prefetch =
        typeof payload.buffer_size === 'number' && payload.buffer_size > 0 ? payload.buffer_size : 16;
      const stream = new HostcallStream(callId, new StreamLink(callId, prefetch, transport, calls));
      calls.set(callId, { type: 'stream', stream });
      transport.send({ callId, kind, payload: { ...payload, stream: true } });
      return stream;
    },
    cancelStream(callId) {
      if (calls.get(callId)?.type === 'stream') transport.cancelStream(callId);
    },
    pending: () => [...calls.keys()],
  };
  inProcessDelivery.set(
    bridge,
    inProcessEntry(calls, (callId, outcome) => complete(callId, outcome, checkHostOutcome)),
  );
  return bridge;
}

/**
 * The bridge's in-process entry: a chunk around a scalar needs no decode and no renaming, so it
 * goes straight to its stream (docs/performance.md, "`--json` without a queue of its own").
 */
function inProcessEntry(
  calls: ReadonlyMap<string, Pending>,
  complete: (callId: string, outcome: HostcallOutcome) => void,
): HostDelivery {
  return ({ callId, outcome }) => {
    const pending = isScalarChunk(outcome) ? calls.get(callId) : undefined;
    if (pending !== undefined && pending.type === 'stream') pending.stream.deliver(outcome);
    else complete(callId, outcome);
  };
}

/** A stream's way back to its bridge: methods, not closures (docs/performance.md, "One call target per call site"). */
class StreamLink implements HostcallStreamLink {
  readonly prefetch: number;
  readonly #callId: string;
  readonly #transport: BridgeTransport;
  readonly #calls: Map<string, Pending>;

  constructor(callId: string, prefetch: number, transport: BridgeTransport, calls: Map<string, Pending>) {
    this.prefetch = prefetch;
    this.#callId = callId;
    this.#transport = transport;
    this.#calls = calls;
  }

  pull(count: number): void {
    this.#transport.pull(this.#callId, count);
  }

  cancel(): void {
    this.#transport.cancelStream(this.#callId);
  }

  settled(): void {
    if (this.#calls.get(this.#callId)?.type === 'stream') this.#calls.delete(this.#callId);
  }
}

/** Checks the transport's three methods (it may carry more: it is not an options bag); returns the call id source. */
function readCallIds(options: BridgeOptions): () => string {
  for (const name of ['send', 'pull', 'cancelStream'] as const) {
    if (typeof readFunction(options, name, undefined) !== 'function') {
      throw optionError(name, 'a function', undefined);
    }
  }
  let counter = 0;
  return readFunction<() => string>(options, 'callIds', () => {
    counter += 1;
    return `hc-${counter}`;
  });
}

/**
 * An outcome in TypeScript's names, built anew rather than spread and overwritten
 * (docs/performance.md, "Code that survives the end of a stream").
 */
function inTypeScriptNames(outcome: HostcallOutcome): HostcallOutcome {
  if (outcome.type === 'success' && typeof outcome.value === 'object' && outcome.value !== null) {
    return success(fromWireNames(outcome.value));
  }
  if (outcome.type === 'streamChunk' && typeof outcome.chunk === 'object' && outcome.chunk !== null) {
    return streamChunk(outcome.sequence, fromWireNames(outcome.chunk), outcome.isFinal);
  }
  return outcome;
}

/** Settles a non-streaming call with its outcome (a stream chunk is a protocol error there). */
function settleCall(
  pending: Extract<Pending, { type: 'call' }>,
  callId: string,
  outcome: HostcallOutcome,
): void {
  if (outcome.type === 'success') pending.resolve(outcome.value);
  else if (outcome.type === 'error') pending.reject(new SluiceError(outcome.code, outcome.message));
  else {
    pending.reject(
      new SluiceError('INVALID_FRAME', `A stream chunk arrived for the non-streaming call \`${callId}\``),
    );
  }
}

/**
 * A bridge's delivery for outcomes an in-process host built itself, checked with
 * {@link checkHostOutcome} rather than decoded. Only {@link connectExtension} uses it; it is not
 * exported from the package, so wire frames still go through `completeHostcall`'s zod decode.
 */
export const inProcessDelivery = new WeakMap<Bridge, HostDelivery>();
