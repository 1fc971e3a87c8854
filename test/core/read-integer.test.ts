import { describe, expect, it } from 'vitest';
import { describeValue } from '../../src/core/describe-value.js';
import { MAX_DELAY_MS } from '../../src/core/max-delay-ms.js';
import { readInteger, readPort } from '../../src/core/read-integer.js';

describe('readInteger', () => {
  it('returns the option, or the fallback when it is absent', () => {
    expect(readInteger({ bufferSize: 0 }, 'bufferSize', 16)).toBe(0);
    expect(readInteger({}, 'bufferSize', 16)).toBe(16);
    expect(readInteger(undefined, 'bufferSize', 16)).toBe(16);
    expect(readInteger({ after: undefined }, 'after', undefined)).toBeUndefined();
  });

  it('words the expected range from its bounds, in the one template', () => {
    expect(() => readInteger({ size: -1 }, 'size', 1)).toThrow(
      new TypeError('Expected the `size` option to be a non-negative integer, got `-1` (number)'),
    );
    expect(() => readInteger({ size: 0 }, 'size', 1, { min: 1 })).toThrow(
      new TypeError('Expected the `size` option to be a positive integer, got `0` (number)'),
    );
    expect(() => readInteger({ leaseMs: 99 }, 'leaseMs', 100, { min: 100 })).toThrow(
      new TypeError('Expected the `leaseMs` option to be an integer of at least 100, got `99` (number)'),
    );
    for (const value of [1.5, '3', Number.NaN, Number.POSITIVE_INFINITY, null]) {
      expect(() => readInteger({ size: value }, 'size', 1)).toThrow(
        /^Expected the `size` option to be a non-negative integer, got /,
      );
    }
  });

  it('names the maximum only when the value is above it', () => {
    expect(() => readInteger({ timeoutMs: 2 ** 31 }, 'timeoutMs', 0, { max: MAX_DELAY_MS })).toThrow(
      new TypeError(
        'Expected the `timeoutMs` option to be a non-negative integer up to 2147483647, got `2147483648` (number)',
      ),
    );
    expect(readInteger({ timeoutMs: MAX_DELAY_MS }, 'timeoutMs', 0, { max: MAX_DELAY_MS })).toBe(
      MAX_DELAY_MS,
    );
  });

  it('names a nested bag, and refuses a bag that is not an object', () => {
    expect(() => readInteger({ maxEvents: 0 }, 'maxEvents', 1, { min: 1, prefix: 'replay.' })).toThrow(
      'Expected the `replay.maxEvents` option to be a positive integer',
    );
    expect(() => readInteger('big', 'size', 1)).toThrow(
      new TypeError('Expected the options to be an object, got `big` (string)'),
    );
  });
});

describe('readPort', () => {
  it('reads a required port from 1 to 65535, naming the option', () => {
    expect(readPort({ port: 8080 })).toBe(8080);
    expect(readPort({ port: 65_535 })).toBe(65_535);
    for (const port of [undefined, 0, -1, 65_536, 80.5, '80']) {
      expect(() => readPort({ port })).toThrow(
        new TypeError(`Expected the \`port\` option to be a port number, got ${describeValue(port)}`),
      );
    }
  });

  it('takes 0 (the default) for any free port where the server listens itself', () => {
    expect(readPort({}, { listens: true })).toBe(0);
    expect(readPort({ port: 0 }, { listens: true })).toBe(0);
    expect(readPort({ port: 443 }, { listens: true })).toBe(443);
    expect(() => readPort({ port: 70_000 }, { listens: true })).toThrow(
      'Expected the `port` option to be a port number, or 0 for any free port, got `70000` (number)',
    );
  });
});
