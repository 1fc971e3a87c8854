import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LastHitMap } from '../../src/kernel/last-hit-map.js';

describe('LastHitMap', () => {
  it('answers like a Map after any sequence of set, delete, clear and get', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'hc-1');
    const step = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key, value: fc.integer() }),
      fc.record({ op: fc.constant('delete' as const), key }),
      fc.record({ op: fc.constant('clear' as const) }),
      fc.record({ op: fc.constant('get' as const), key }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const map = new LastHitMap<string, number>();
        const model = new Map<string, number>();
        for (const s of steps) {
          if (s.op === 'set') {
            map.set(s.key, s.value);
            model.set(s.key, s.value);
          } else if (s.op === 'delete') expect(map.delete(s.key)).toBe(model.delete(s.key));
          else if (s.op === 'clear') {
            map.clear();
            model.clear();
          } else expect(map.get(s.key)).toBe(model.get(s.key));
          expect(map.size).toBe(model.size);
        }
        expect([...map]).toEqual([...model]);
      }),
    );
  });

  it('forgets a remembered miss once the key is set, and a hit once it is replaced or deleted', () => {
    const map = new LastHitMap<string, string>();
    expect(map.get('ext-a')).toBeUndefined();
    map.set('ext-a', 'first');
    expect(map.get('ext-a')).toBe('first');
    map.set('ext-a', 'second');
    expect(map.get('ext-a')).toBe('second');
    map.delete('ext-a');
    expect(map.get('ext-a')).toBeUndefined();
  });

  it('is a Map where one is expected, and finds a NaN key as Map does', () => {
    const map = new LastHitMap<number, string>();
    map.set(Number.NaN, 'nan');
    expect(map).toBeInstanceOf(Map);
    expect(map.get(Number.NaN)).toBe('nan');
    expect(map.get(Number.NaN)).toBe('nan');
  });
});
