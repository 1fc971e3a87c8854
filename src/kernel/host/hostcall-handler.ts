import type { JsonValue } from '../protocol/json-value.js';
import type { HostcallContext } from './stream-producer.js';

/**
 * Serves a non-streaming hostcall kind (`tool`, `session`, `ui`, … or `exec` / `http` without
 * `stream: true`). The value it returns (or resolves to) completes the call with `Success(value)`;
 * what it throws (or rejects with) completes it with `Error { code, message }`, the code taken
 * from the error's `code` property when it is a string, else `HOSTCALL_FAILED`. A synchronous
 * return is enqueued at once, which keeps virtual-time scenarios deterministic.
 */
export type HostcallHandler = (
  payload: Readonly<Record<string, unknown>>,
  context: HostcallContext,
) => JsonValue | Promise<JsonValue>;
