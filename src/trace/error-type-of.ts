import { isSluiceError } from '../core/errors/sluice-error.js';

/**
 * A failed run's `error.type`, kept low-cardinality as OpenTelemetry's conventions ask: a sluice
 * error's `code`, else an `Error`'s `name`, else `_OTHER`.
 */
export function errorTypeOf(error: unknown): string {
  if (isSluiceError(error)) return error.code;
  if (error instanceof Error) return error.name;
  return '_OTHER';
}
