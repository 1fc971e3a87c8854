import { describe, expect, it } from 'vitest';
import { deferred } from '../../../src/core/deferred.js';
import { ToolCallQueue } from '../../../src/kernel/supervisor/tool-call-queue.js';

describe('ToolCallQueue', () => {
  it('runs at most `max` tasks at once and starts the waiting ones in order', async () => {
    const queue = new ToolCallQueue(2);
    const started: number[] = [];
    const gates = [0, 1, 2, 3].map(() => deferred<void>());
    for (const [index, gate] of gates.entries()) {
      queue.add(() => {
        started.push(index);
        return gate.promise;
      });
    }
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve();
    await gates[1]?.promise;
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve();
    await gates[0]?.promise;
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('starts none of the waiting tasks after clear()', async () => {
    const queue = new ToolCallQueue(1);
    const first = deferred<void>();
    let second = false;
    queue.add(() => first.promise);
    queue.add(async () => {
      second = true;
    });
    queue.clear();
    first.resolve();
    await first.promise;
    await Promise.resolve();
    expect(second).toBe(false);
  });
});
