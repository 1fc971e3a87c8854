import { isSluiceError } from '../../core/errors/sluice-error.js';
import { formatSseFrame } from './format-sse-frame.js';

/**
 * The `failure` control frame: the stream's source errored after the events before it. `data` is
 * `{"code":…,"name":…,"message":…}` (`code` is the sluice error code, or `'STREAM_FAILED'` for an
 * error that has none). No `id`: a client resuming after the last event gets the failure again.
 *
 * @example
 * ```ts
 * import { SluiceError } from 'sluice';
 * import { encodeFailure } from 'sluice/adapters';
 * encodeFailure(new SluiceError('EXEC_FAILED', 'Command failed with exit code 1'));
 * // 'event: failure\ndata: {"code":"EXEC_FAILED","name":"SluiceError","message":"Command failed with exit code 1"}\n\n'
 * ```
 */
export function encodeFailure(error: unknown): string {
  const code = isSluiceError(error) ? error.code : 'STREAM_FAILED';
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return formatSseFrame({ event: 'failure', data: JSON.stringify({ code, name, message }) });
}
