import { toRunFailure } from '../run-failure.js';
import { encodeRunFailure } from './encode-run-failure.js';

/**
 * The `failure` control frame: the stream's source errored after the events before it. `data` is
 * `{"code":…,"name":…,"message":…}` (`code` is the sluice error code, or `'STREAM_FAILED'` for an
 * error that has none). No `id`: a client resuming after the last event gets the failure again.
 */
export function encodeFailure(error: unknown): string {
  return encodeRunFailure(toRunFailure(error));
}
