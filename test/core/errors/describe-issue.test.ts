import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssue } from '../../../src/core/errors/describe-issue.js';
import { firstIssue } from '../../../src/core/errors/first-issue.js';

describe('describeIssue', () => {
  it('names the field, the problem and the value as JSON with its type', () => {
    expect(
      describeIssue({ field: 'payload.stream', value: 'yes', problem: 'must be a boolean' }, 'the payload'),
    ).toBe('`payload.stream` must be a boolean, got "yes" (string)');
    expect(describeIssue({ field: '', value: null, problem: 'must be an object' }, 'the frame')).toBe(
      'the frame must be an object, got null (null)',
    );
    expect(describeIssue({ field: 'callId', value: undefined, problem: 'is required' }, 'the frame')).toBe(
      '`callId` is required, got nothing',
    );
  });

  it('shows numbers as written, cuts long values and never throws', () => {
    const problem = 'must be an integer';
    expect(describeIssue({ field: 'n', value: Number.NaN, problem }, '')).toBe(
      '`n` must be an integer, got NaN (number)',
    );
    expect(describeIssue({ field: 'n', value: 10n, problem }, '')).toBe(
      '`n` must be an integer, got 10 (bigint)',
    );
    const long = describeIssue({ field: 'n', value: 'x'.repeat(500), problem }, '');
    expect(long).toMatch(/got "x{76}\.\.\. \(string\)$/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeIssue({ field: 'n', value: cyclic, problem }, '')).toBe(
      '`n` must be an integer, got [a value that cannot be shown] (object)',
    );
  });
});

describe('firstIssue', () => {
  const schema = z.strictObject({
    stream: z.boolean({ error: 'must be a boolean' }).optional(),
    items: z.array(z.string()).optional(),
    note: z.string().max(3, { error: 'too long' }).optional(),
  });
  const issue = (input: unknown, prefix?: string) => {
    const result = schema.safeParse(input);
    if (result.success) throw new Error('expected a failure');
    return firstIssue(result.error, input, prefix);
  };

  it('keeps a message phrased to follow the field, with the path under the prefix and the value there', () => {
    expect(issue({ stream: 'yes' }, 'payload')).toEqual({
      field: 'payload.stream',
      value: 'yes',
      problem: 'must be a boolean',
    });
  });

  it("words zod's default type message, indexes arrays, reports unknown keys and other messages", () => {
    expect(issue({ items: ['a', 3] })).toEqual({ field: 'items[1]', value: 3, problem: 'must be a string' });
    expect(issue({ extra: 1 })).toEqual({ field: 'extra', value: 1, problem: 'is not a known field' });
    expect(issue({ note: 'long' })).toEqual({
      field: 'note',
      value: 'long',
      problem: 'is invalid (too long)',
    });
    expect(issue(5, 'payload')).toEqual({ field: 'payload', value: 5, problem: 'must be an object' });
  });
});
