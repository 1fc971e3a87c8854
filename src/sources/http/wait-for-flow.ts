import type { Demand } from '../../core/demand.js';

/**
 * Resolves once `demand` is flowing (not paused) or `signal` is aborted, whichever comes first,
 * and removes its listeners either way. Resolves at once when there is nothing to wait for.
 *
 * @example
 * ```ts
 * while (demand?.paused && !signal.aborted) await waitForFlow(demand, signal);
 * if (signal.aborted) return;
 * const { done, value } = await reader.read();
 * ```
 */
export function waitForFlow(demand: Demand, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (!demand.paused || signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      stopListening();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const stopListening = demand.onChange((paused) => {
      if (!paused) done();
    });
    signal.addEventListener('abort', done, { once: true });
  });
}
