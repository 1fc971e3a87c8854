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
 * Wires an extension to an in-process host through a new bridge. `callIds` defaults to
 * `${extensionId}:hc-1`, `${extensionId}:hc-2`, … (any ids work; the prefix keeps logs readable).
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
  // Internalized ids (docs/performance.md, "Ids V8 compares by address"); anything else is passed
  // on for `createBridge` and the host to refuse.
  const callIds = typeof nextId === 'function' ? () => internalized(nextId()) : nextId;
  const id = internalized(extensionId);
  // The bridge first, so that the host delivers to its in-process entry with no closure in
  // between (docs/performance.md, "Fewer steps per chunk").
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
 * A string `value` internalized (an object's property key is), so that lookups compare it by
 * address (docs/performance.md, "Ids V8 compares by address"); anything else as it is.
 */
export function internalized<T>(value: T): T {
  return typeof value === 'string' ? (Object.keys({ [value]: 0 })[0] as T) : value;
}
