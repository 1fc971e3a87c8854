/**
 * What a tool call answers, never thrown: `{ ok: true, value }` with the handler's result, or
 * `{ ok: false, error: { code, message } }` naming the problem. Codes used by
 * {@link dispatchToolCall}: `INVALID_MESSAGE` (the call itself is malformed), `UNKNOWN_TOOL`,
 * `INVALID_ARGUMENTS`, `TOOL_FAILED` (the handler threw something without a code), or the `code`
 * of the error the handler threw (`SPAWN_FAILED`, …).
 */
export type ToolResult<R = unknown> =
  | { readonly ok: true; readonly value: R }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };
