import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import type { RunReadOptions } from './run-store.js';

/**
 * Checks the options of a run read and returns `after`: a sequence, or `-1` when absent (read
 * from the start). Throws a `TypeError` in the options template otherwise. Internal.
 */
export function readAfter(options: RunReadOptions): number {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['after']);
  const after = options.after ?? -1;
  if (!Number.isSafeInteger(after) || after < -1) throw optionError('after', 'an integer >= -1', after);
  return after;
}
