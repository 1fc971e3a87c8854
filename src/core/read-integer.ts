import { optionError } from './option-error.js';
import { readOption } from './read-option.js';

/** The bounds of {@link readInteger}, and the prefix of a nested bag (`'replay.'`). */
interface IntegerBounds {
  /** Default `0`. */
  readonly min?: number;
  /** Default `Number.MAX_SAFE_INTEGER`; a delay is capped at `MAX_DELAY_MS`. */
  readonly max?: number;
  readonly prefix?: string;
  /** What the integer is, for the message (`'a port number'`); by default said from `min` and `max`. */
  readonly expected?: string;
}

/**
 * Reads an integer option in `[min, max]` (by default a non-negative safe integer), `fallback`
 * when absent: "Expected the `bufferSize` option to be a positive integer, got `0` (number)". The
 * message names the maximum only when the value is above it.
 */
export function readInteger<F extends number | undefined>(
  options: unknown,
  name: string,
  fallback: F,
  { min = 0, max = Number.MAX_SAFE_INTEGER, prefix = '', expected }: IntegerBounds = {},
): number | F {
  const value = readOption<unknown, F>(options, name, () => true, '', fallback, prefix);
  if (value === undefined) return fallback;
  const base =
    expected ??
    (min === 0
      ? 'a non-negative integer'
      : min === 1
        ? 'a positive integer'
        : `an integer of at least ${min}`);
  if (!Number.isInteger(value) || (value as number) < min) throw optionError(`${prefix}${name}`, base, value);
  if ((value as number) > max) {
    throw optionError(`${prefix}${name}`, expected ?? `${base} up to ${max}`, value);
  }
  return value as number;
}

/**
 * Reads the `port` option of a server: 1 to 65535, required — or, for a server that listens itself
 * (`listens`), `0` (the default) for any free port. One rule for every port sluice takes.
 */
export function readPort(options: unknown, { listens = false }: { listens?: boolean } = {}): number {
  const expected = listens ? 'a port number, or 0 for any free port' : 'a port number';
  const port = readInteger(options, 'port', listens ? 0 : undefined, {
    min: listens ? 0 : 1,
    max: 65_535,
    expected,
  });
  if (port === undefined) throw optionError('port', expected, port);
  return port;
}
