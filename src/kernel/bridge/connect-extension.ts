import type { Host } from '../host/host.js';
import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { Bridge } from './bridge.js';
import { createBridge } from './create-bridge.js';
import { createExtensionApi, type ExtensionApi } from './extension-api.js';
import { inProcessDelivery } from './in-process-delivery.js';

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
 * not decoded again with zod; other outcomes are), the bridge sends, pulls and cancels through the connection.
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
  const callIds =
    options.callIds ??
    (() => {
      counter += 1;
      return `${extensionId}:hc-${counter}`;
    });
  // The host built these outcomes itself: they take the bridge's in-process entry (no zod decode of
  // each chunk of a stream).
  let deliver: ((callId: string, outcome: HostcallOutcome) => void) | undefined;
  const connection = host.connect(extensionId, (task) => deliver?.(task.callId, task.outcome));
  const bridge = createBridge({ ...connection, callIds });
  deliver = inProcessDelivery.get(bridge);
  return { extensionId, bridge, api: createExtensionApi(bridge), disconnect: connection.disconnect };
}
