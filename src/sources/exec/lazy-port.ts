import { DeferredHandle } from './deferred-handle.js';
import type { ProcessEvents, ProcessHandle, ProcessPort, SpawnRequest } from './process-port.js';

/**
 * A {@link ProcessPort} whose implementation is loaded on first use (`load` is called once, by
 * the first `spawn`), so that importing it costs nothing. Once loaded, `spawn` is the loaded
 * port's, synchronous. Until then `spawn` returns a {@link DeferredHandle} and spawns when the
 * load settles — unless that handle was destroyed meanwhile (the subscription was cancelled:
 * nothing is spawned). A failed load is reported as `events.spawnError(error)`.
 *
 * Real processes never run in virtual time, so the promise is harmless here; fake ports
 * (`sluice/testing`) stay synchronous.
 *
 * @example
 * ```ts
 * const port = lazyPort(async () => {
 *   const { execa } = await import('execa');
 *   return { spawn: (request, events) => spawnWithExeca(execa, request, events) };
 * });
 * exec('ls', [], { port }).subscribe(console.log); // execa is imported now, not before
 * ```
 */
export function lazyPort(load: () => Promise<ProcessPort>): ProcessPort {
  let loaded: ProcessPort | undefined;
  let loading: Promise<ProcessPort> | undefined;
  const start = (): Promise<ProcessPort> => {
    loading ??= load().then((port) => {
      loaded = port;
      return port;
    });
    return loading;
  };
  return {
    spawn(request: SpawnRequest, events: ProcessEvents): ProcessHandle {
      if (loaded !== undefined) return loaded.spawn(request, events);
      const handle = new DeferredHandle();
      start().then(
        (port) => {
          if (handle.wanted) handle.attach(port.spawn(request, events));
        },
        (error: unknown) => {
          if (!handle.wanted) return;
          handle.fail();
          events.spawnError(error);
        },
      );
      return handle;
    },
  };
}
