import type { RunFailure } from '../../core/run-failure.js';
import { formatSseFrame } from './format-sse-frame.js';

/**
 * The `failure` control frame of a failure as a run store keeps it: `data` is
 * `{"code":…,"name":…,"message":…}`, no `id` (a client resuming after the last event gets the
 * failure again). See `docs/sse.md`.
 */
export function encodeRunFailure(failure: RunFailure): string {
  const { code, name, message } = failure;
  return formatSseFrame({ event: 'failure', data: JSON.stringify({ code, name, message }) });
}
