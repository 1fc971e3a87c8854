import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RingQueue } from '../../../src/core/queue/ring-queue.js';
import { macrotask } from '../../support/macrotask.js';

describe('RingQueue', () => {
  it('is a FIFO: shift gives the oldest, peek looks at it, pop takes the newest', () => {
    const queue = new RingQueue<string>();
    expect(queue.shift()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
    expect(queue.pop()).toBeUndefined();
    expect(queue.push('a')).toBe(true);
    queue.push('b');
    queue.push('c');
    expect(queue.size).toBe(3);
    expect(queue.peek()).toBe('a');
    expect(queue.shift()).toBe('a');
    expect(queue.pop()).toBe('c');
    expect(queue.size).toBe(1);
    expect(queue.shift()).toBe('b');
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });

  it('grows past its initial capacity with the head in the middle of the ring, keeping the order', () => {
    const queue = new RingQueue<number>();
    for (let value = 0; value < 10; value += 1) queue.push(value);
    for (let value = 0; value < 10; value += 1) expect(queue.shift()).toBe(value);
    // The head is now at slot 10 of 16: the next 40 values wrap around, then force two doublings.
    for (let value = 0; value < 40; value += 1) queue.push(value);
    expect(queue.size).toBe(40);
    expect(queue.pop()).toBe(39);
    const out: number[] = [];
    for (let value = queue.shift(); value !== undefined; value = queue.shift()) out.push(value);
    expect(out).toEqual(Array.from({ length: 39 }, (_, index) => index));
  });

  it('clear() empties it and it works on afterwards', () => {
    const queue = new RingQueue<number>();
    for (let value = 0; value < 100; value += 1) queue.push(value);
    queue.clear();
    expect(queue.size).toBe(0);
    expect(queue.peek()).toBeUndefined();
    queue.push(7);
    expect(queue.shift()).toBe(7);
  });

  it('keeps falsy values apart from emptiness (0, "", null, false are values)', () => {
    const queue = new RingQueue<unknown>();
    for (const value of [0, '', null, false]) queue.push(value);
    expect([queue.shift(), queue.shift(), queue.pop(), queue.shift()]).toEqual([0, '', false, null]);
    expect(queue.size).toBe(0);
  });

  it('property: any interleaving of push / shift / pop / peek / clear behaves as an array', () => {
    const operation = fc.oneof(
      { arbitrary: fc.integer().map((value) => ({ op: 'push' as const, value })), weight: 5 },
      { arbitrary: fc.constant({ op: 'shift' as const }), weight: 3 },
      { arbitrary: fc.constant({ op: 'pop' as const }), weight: 1 },
      { arbitrary: fc.constant({ op: 'peek' as const }), weight: 1 },
      { arbitrary: fc.constant({ op: 'clear' as const }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
        const queue = new RingQueue<number>();
        const model: number[] = [];
        for (const step of operations) {
          if (step.op === 'push') {
            queue.push(step.value);
            model.push(step.value);
          } else if (step.op === 'shift') expect(queue.shift()).toBe(model.shift());
          else if (step.op === 'pop') expect(queue.pop()).toBe(model.pop());
          else if (step.op === 'peek') expect(queue.peek()).toBe(model[0]);
          else {
            queue.clear();
            model.length = 0;
          }
          expect(queue.size).toBe(model.length);
        }
        const rest: number[] = [];
        while (queue.size > 0) rest.push(queue.shift() as number);
        expect(rest).toEqual(model);
      }),
      { numRuns: 300 },
    );
  });
});

describe('RingQueue memory', () => {
  // V8's gc(), reachable without --expose-gc: a value that left the queue must be collectable.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;

  it('keeps no value alive once it left by shift, pop or clear', async () => {
    const queue = new RingQueue<object>();
    const refs: WeakRef<object>[] = [];
    const pushTracked = (index: number) => {
      const value = { index };
      refs.push(new WeakRef(value));
      queue.push(value);
    };
    const keep = { kept: true };
    for (let index = 0; index < 4; index += 1) pushTracked(index);
    queue.push(keep);
    for (let index = 0; index < 4; index += 1) queue.shift();
    pushTracked(4);
    queue.pop();
    await macrotask(); // WeakRef targets stay alive until the end of the job that made them
    gc();
    expect(refs.map((ref) => ref.deref())).toEqual(refs.map(() => undefined));
    expect(queue.peek()).toBe(keep);
    pushTracked(5);
    queue.clear();
    await macrotask();
    gc();
    expect(refs[5]?.deref()).toBeUndefined();
  });
});
