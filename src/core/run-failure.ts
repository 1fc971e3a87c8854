/**
 * How a run ended badly, as a store keeps it: the error's stable `code` (`EXEC_FAILED`,
 * `OWNER_LOST`, …), its class `name` and its `message` — the same fields as the SSE `failure`
 * frame (`docs/sse.md`).
 */
export interface RunFailure {
  readonly code: string;
  readonly name: string;
  readonly message: string;
}
