/**
 * How a run ended badly, as a store keeps it: the error's stable `code` (`EXEC_FAILED`,
 * `OWNER_LOST`, …), its class `name` and its `message` — the same fields as the SSE `failure`
 * frame (`docs/sse.md`).
 *
 * @example
 * ```ts
 * import type { RunFailure } from 'sluice';
 * const failure: RunFailure = { code: 'OWNER_LOST', name: 'OwnerLostError', message: 'Run 7 lost its owner' };
 * ```
 */
export interface RunFailure {
  readonly code: string;
  readonly name: string;
  readonly message: string;
}
