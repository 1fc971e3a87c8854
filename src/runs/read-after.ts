import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import type { RunReadOptions } from './run-store.js';

/**
 * Checks the options of a run read and returns `after`: a sequence, or `-1` when absent (read
 * from the start). Throws a `TypeError` in the options template otherwise. Internal.
 */
export function readAfter(options: RunReadOptions): number {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['after']);
  return readInteger(options, 'after', -1, { min: -1 });
}
