import { describe, expect, it } from 'vitest';
import { optionError } from '../../src/core/option-error.js';

describe('optionError: the one template of option and argument messages', () => {
  it('names what was given and shows the value, short and typed', () => {
    expect(optionError('timeoutMs', 'a non-negative integer', -1).message).toBe(
      'Expected the `timeoutMs` option to be a non-negative integer, got `-1` (number)',
    );
    expect(optionError('file', 'a non-empty string', '', 'argument').message).toBe(
      'Expected the `file` argument to be a non-empty string, got `` (string)',
    );
    expect(optionError(undefined, 'an object', null).message).toBe(
      'Expected the options to be an object, got `null` (null)',
    );
    expect(optionError('handler', 'a function', 1, 'field of tool `Exec`').message).toBe(
      'Expected the `handler` field of tool `Exec` to be a function, got `1` (number)',
    );
    expect(optionError('x', 'a string', [1, 2]).message).toMatch(/got `\[1,2\]` \(array\)$/);
    expect(optionError('x', 'a string', () => 1).message).toMatch(/got `\[function\]` \(function\)$/);
  });

  it('shows control characters escaped, and cuts a long value', () => {
    expect(optionError('id', 'free of line breaks', 'a\nb\0').message).toMatch(
      /got `a\\nb\\u0000` \(string\)$/,
    );
    expect(optionError('id', 'short', 'x'.repeat(100)).message).toMatch(/got `x{57}\.\.\.` \(string\)$/);
  });
});
