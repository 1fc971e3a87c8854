import type { Host, HostConnection, HostDelivery } from '../host/host.js';
import { type Bridge, createBridge, inProcessDelivery } from './bridge.js';
import { createExtensionApi, type ExtensionApi } from './extension-api.js';

/** An extension wired to an in-process host (see {@link connectExtension}). */
export interface ConnectedExtension {
  readonly extensionId: string;
  readonly bridge: Bridge;
  readonly api: ExtensionApi;
  /** Stops delivery to this extension (does not cancel its streams: see `host.unloadExtension`). */
  disconnect(): void;
}

/**
 * Wires an extension to an in-process host: `host.connect(extensionId, …)` delivers to a new
 * bridge (through its in-process entry: a stream chunk the host built around a JSON scalar is
 * not decoded again with zod; other outcomes are), the bridge sends, pulls and cancels through
 * the connection.
 * `callIds` defaults to `${extensionId}:hc-1`, `${extensionId}:hc-2`, … (the host keys calls by
 * extension, so any ids work; the prefix keeps logs readable).
 *
 * @example
 * ```ts
 * const host = createHost();
 * const { api } = connectExtension(host, 'ext-a');
 * for await (const line of api.exec('ls', ['-la'], { stream: true })) console.log(line);
 * ```
 */
export function connectExtension(
  host: Host,
  extensionId: string,
  options: { readonly callIds?: () => string } = {},
): ConnectedExtension {
  let counter = 0;
  const nextId =
    options.callIds ??
    (() => {
      counter += 1;
      return `${extensionId}:hc-${counter}`;
    });
  // The ids are internalized, so that the host and the bridge find a call by comparing addresses
  // (docs/performance.md, "Ids V8 compares by address"); what is no function or no string is
  // passed on as it is, for `createBridge` and the host to refuse.
  const callIds = typeof nextId === 'function' ? () => internalized(nextId()) : nextId;
  const id = internalized(extensionId);
  // The bridge comes first, so that the host delivers to its in-process entry itself, with no
  // closure in between called for every chunk (docs/performance.md, "Fewer steps per chunk"); it sends, pulls and cancels through the connection made for
  // it (once per call or per half window, not per chunk). The host built these outcomes itself:
  // the entry does not decode a stream's chunks with zod.
  let connection: HostConnection | undefined;
  const bridge = createBridge({
    send: (request) => connection?.send(request),
    pull: (callId, count) => connection?.pull(callId, count),
    cancelStream: (callId) => connection?.cancelStream(callId),
    callIds,
  });
  connection = host.connect(id, inProcessDelivery.get(bridge) as HostDelivery);
  return { extensionId: id, bridge, api: createExtensionApi(bridge), disconnect: connection.disconnect };
}

/**
 * `value` as V8 keeps it in its string table (an internalized string), or `value` itself when it
 * is no string. Two internalized strings are compared by address; a string built at run time
 * (`ext-a:hc-${n}`) is compared by its characters, in a call, at every lookup keyed by it — and
 * the kernel looks a stream up by its call id and its extension's id for every chunk, on both
 * sides (docs/performance.md, "Ids V8 compares by address"). An object's property key is
 * internalized, so the one key of an object made with `value` as its key is `value`,
 * internalized; the characters are the same. (Internal to the bridge.)
 *
 * @example
 * ```ts
 * const id = internalized(`ext-a:hc-${n}`); // equal to the built string, compared by address
 * ```
 */
export function internalized<T>(value: T): T {
  return typeof value === 'string' ? (Object.keys({ [value]: 0 })[0] as T) : value;
}
