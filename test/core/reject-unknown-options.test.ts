import { describe, expect, it } from 'vitest';
import { rejectUnknownOptions } from '../../src/core/reject-unknown-options.js';

describe('rejectUnknownOptions', () => {
  it('names the first unknown key and lists the known ones', () => {
    expect(() =>
      rejectUnknownOptions({ capacity: 1, stratgy: 'x', other: 2 }, ['capacity', 'strategy']),
    ).toThrow(new TypeError('Unknown `stratgy` option (known options: capacity, strategy)'));
  });

  it('prefixes the name of a nested bag', () => {
    expect(() => rejectUnknownOptions({ cpu: 1 }, ['cpuSeconds'], 'rlimits.')).toThrow(
      new TypeError('Unknown `rlimits.cpu` option (known options: cpuSeconds)'),
    );
  });

  it('counts a key even when its value is undefined', () => {
    expect(() => rejectUnknownOptions({ timeout: undefined }, ['timeoutMs'])).toThrow(
      'Unknown `timeout` option',
    );
  });

  it('accepts known keys, and leaves non-objects to the caller', () => {
    expect(() => rejectUnknownOptions({ capacity: 1 }, ['capacity', 'strategy'])).not.toThrow();
    for (const value of [undefined, null, 5, 'text', [1, 2]]) {
      expect(() => rejectUnknownOptions(value, ['capacity'])).not.toThrow();
    }
  });
});
