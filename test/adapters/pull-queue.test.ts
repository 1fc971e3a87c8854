import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { PullQueue } from '../../src/adapters/pull-queue.js';
import { demandCounter } from './demand-counter.js';

describe('PullQueue', () => {
  it('poll() takes a queued value synchronously and gives undefined when none is queued', async () => {
    const subject = new Subject<number>();
    const queue = new PullQueue(subject, 16);
    expect(queue.poll()).toBeUndefined(); // nothing subscribed yet: poll() never subscribes
    expect(subject.observed).toBe(false);
    const first = queue.next();
    subject.next(1);
    subject.next(2);
    subject.next(3);
    expect(await first).toEqual({ done: false, value: 1 });
    expect(queue.poll()).toEqual({ done: false, value: 2 });
    expect(queue.poll()).toEqual({ done: false, value: 3 });
    expect(queue.poll()).toBeUndefined();
    subject.complete();
    expect(queue.poll()).toBeUndefined(); // the end is reported by next()
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });

  it('poll() gives undefined after cancel(), even with values queued', async () => {
    const subject = new Subject<number>();
    const queue = new PullQueue(subject, 16);
    const first = queue.next();
    subject.next(1);
    subject.next(2);
    await first;
    queue.cancel();
    expect(subject.observed).toBe(false);
    expect(queue.poll()).toBeUndefined();
    expect(await queue.next()).toEqual({ done: true, value: undefined });
  });

  it('with bufferSize 16, pauses at 16 waiting and resumes at 8, also when taken by poll()', async () => {
    const { source, stats } = demandCounter({ count: 10_000 });
    const queue = new PullQueue(source, 16);
    expect(await queue.next()).toEqual({ done: false, value: 0 });
    expect(stats.produced).toBe(17);
    for (let taken = 1; taken <= 7; taken += 1) {
      expect(queue.poll()).toEqual({ done: false, value: taken });
      expect(stats.produced).toBe(17); // 16 → 9 waiting: still paused
    }
    expect(queue.poll()).toEqual({ done: false, value: 8 }); // 8 waiting: resumed, refilled
    expect(stats.produced).toBe(9 + 16);
    queue.cancel();
    expect(stats.teardowns).toBe(1);
  });
});
