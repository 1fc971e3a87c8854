/**
 * Whether `value` can be used as an `AbortSignal` (an `aborted` flag and `addEventListener`), so
 * that a signal from another realm (a test DOM, a polyfill) works too. Every `signal` and
 * `cancelSignal` option of sluice is checked with it. Internal: not exported from the package.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  );
}
