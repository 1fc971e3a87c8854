import { failure, type HostcallOutcome } from '../protocol/hostcall-outcome.js';

/**
 * Turns what a producer or a handler threw (or rejected with) into an `Error` outcome: the
 * error's `code` when it is a non-empty string (every `SluiceError` has one), else
 * `HOSTCALL_FAILED`; its `message`, else the value as a string. (Internal to the host: producers'
 * errors in `openHostStream`, handlers' in `runHandler`, bad requests in `createHost`.)
 *
 * @example
 * ```ts
 * toFailure(Object.assign(new Error('exit code 1'), { code: 'EXEC_FAILED' }));
 * // { type: 'error', code: 'EXEC_FAILED', message: 'exit code 1' }
 * toFailure('boom'); // { type: 'error', code: 'HOSTCALL_FAILED', message: 'boom' }
 * ```
 */
export function toFailure(error: unknown): HostcallOutcome {
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const code = typeof record.code === 'string' && record.code !== '' ? record.code : 'HOSTCALL_FAILED';
  return failure(code, typeof record.message === 'string' ? record.message : String(error));
}
