/**
 * Resolves after the current macrotask and every microtask before it: one turn of the event loop
 * (`setImmediate`), for tests that let queued work run without waiting on a clock.
 */
export function macrotask(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
