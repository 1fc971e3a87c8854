import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonValueSchema } from '../../../src/kernel/protocol/json-value.js';

const issue = (value: unknown) => {
  const result = jsonValueSchema.safeParse(value);
  return result.success
    ? undefined
    : { path: result.error.issues[0]?.path, message: result.error.issues[0]?.message };
};

describe('jsonValueSchema', () => {
  it('accepts every JSON value and returns it unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonValueSchema.parse(value)).toBe(value);
      }),
    );
    expect(jsonValueSchema.parse(Object.assign(Object.create(null), { a: 1 }))).toEqual({ a: 1 });
  });

  it('accepts shared (acyclic) references and deep nesting', () => {
    const shared = { x: 1 };
    expect(issue({ a: shared, b: [shared, shared] })).toBeUndefined();
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(issue(deep)).toBeUndefined();
  });

  it('reports the path and the reason of the first non-JSON spot', () => {
    class Point {
      x = 1;
    }
    const cycle: unknown[] = [];
    cycle.push({ back: cycle });
    expect(issue(undefined)).toEqual({ path: [], message: 'must be a JSON value' });
    expect(issue({ a: [0, 1, -Infinity] })).toEqual({
      path: ['a', 2],
      message: 'must be a finite number',
    });
    expect(issue([new Point()])).toEqual({ path: [0], message: 'must be a plain object' });
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is being tested
    expect(issue({ list: [1, , 3] })).toEqual({ path: ['list', 1], message: 'must be a JSON value' });
    expect(issue(cycle)).toEqual({ path: [0, 'back'], message: 'must not contain a cycle' });
  });
});
