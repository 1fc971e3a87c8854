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
 * when absent, with the one message template of sluice: "Expected the `bufferSize` option to be a
 * positive integer, got `0` (number)". The message names the maximum only when the value is above
 * it ("… a non-negative integer up to 2147483647, got `3000000000` (number)"). Internal: not
 * exported from the package.
 *
 * @example
 * ```ts
 * import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
 * import { readInteger } from '../core/read-integer.js';
 * const timeoutMs = readInteger(options, 'timeoutMs', 0, { max: MAX_DELAY_MS });
 * const maxLineBytes = readInteger(options, 'maxLineBytes', 65_536, { min: 1 });
 * ```
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
 * Reads the `port` option of a server: a TCP port from 1 to 65535, required — or, for a server
 * that listens itself (`listens`), `0` (the default) for any free port. One rule for every port
 * sluice takes, read as {@link readInteger} reads integers. Internal: not exported from the package.
 *
 * @example
 * ```ts
 * const port = readPort(options); // serveMcpHttp: the port the caller listens on
 * const listenPort = readPort(options, { listens: true }); // startWebServer
 * ```
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
