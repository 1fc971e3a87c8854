import { type SchedulerAction, type SchedulerLike, Subject, Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../../src/core/deferred.js';
import { isSluiceError } from '../../../src/core/errors/sluice-error.js';
import {
  createMacrotaskScheduler,
  type Macrotask,
} from '../../../src/kernel/scheduler/macrotask-scheduler.js';
import { macrotask } from '../../support/macrotask.js';
import { newTestScheduler } from '../../support/test-scheduler.js';

/** A driver whose drains run only when the test says so. */
function steppedDriver() {
  const drains: (() => void)[] = [];
  const driver: SchedulerLike = {
    now: () => 0,
    schedule(work: (this: SchedulerAction<unknown>, state?: unknown) => void) {
      drains.push(() => work.call({} as SchedulerAction<unknown>));
      return new Subscription();
    },
  };
  return { driver, drains };
}

describe('createMacrotaskScheduler', () => {
  it('is a FIFO with a global seq; tick() delivers exactly one and says whether it did', () => {
    const delivered: Macrotask<string>[] = [];
    const scheduler = createMacrotaskScheduler<string>({
      driver: 'manual',
      deliver: (task) => delivered.push(task),
    });
    expect(scheduler.enqueue('ext-a', 'hc-42', 'a')).toEqual({
      seq: 0,
      extensionId: 'ext-a',
      callId: 'hc-42',
      outcome: 'a',
    });
    scheduler.enqueue('ext-b', 'hc-99', 'b');
    expect(scheduler.nextSeq()).toBe(2);
    scheduler.enqueue('ext-a', 'hc-42', 'c');
    expect(scheduler.size).toBe(3);
    expect(scheduler.pending().map((task) => task.seq)).toEqual([0, 1, 3]);
    expect(scheduler.tick()).toBe(true);
    expect(delivered.map((task) => task.outcome)).toEqual(['a']);
    expect(scheduler.runUntilIdle()).toBe(2);
    expect(delivered.map((task) => [task.seq, task.callId])).toEqual([
      [0, 'hc-42'],
      [1, 'hc-99'],
      [3, 'hc-42'],
    ]);
    expect(scheduler.tick()).toBe(false);
    expect(scheduler.size).toBe(0);
  });

  it('runs onDelivered right after the delivery, even when the delivery throws', () => {
    const order: string[] = [];
    const scheduler = createMacrotaskScheduler<string>({
      driver: 'manual',
      deliver: (task) => {
        order.push(`deliver ${task.outcome}`);
        if (task.outcome === 'bad') throw new Error('boom');
      },
    });
    scheduler.enqueue('ext-a', 'hc-1', 'ok', () => order.push('after ok'));
    scheduler.enqueue('ext-a', 'hc-1', 'bad', () => order.push('after bad'));
    scheduler.tick();
    expect(() => scheduler.tick()).toThrow('boom');
    expect(order).toEqual(['deliver ok', 'after ok', 'deliver bad', 'after bad']);
  });

  it('runUntilIdle delivers what deliveries enqueue, up to its limit', () => {
    let scheduler = createMacrotaskScheduler<number>({ driver: 'manual' });
    scheduler.setDelivery((task) => {
      if (task.outcome < 5) scheduler.enqueue('ext-a', 'hc-1', task.outcome + 1);
    });
    scheduler.enqueue('ext-a', 'hc-1', 0);
    expect(scheduler.runUntilIdle()).toBe(6);
    scheduler = createMacrotaskScheduler<number>({ driver: 'manual', deliver: () => {} });
    for (let n = 0; n < 5; n += 1) scheduler.enqueue('ext-a', 'hc-1', n);
    expect(scheduler.runUntilIdle(3)).toBe(3);
    expect(scheduler.size).toBe(2);
    expect(scheduler.runUntilIdle(0)).toBe(0);
    expect(scheduler.runUntilIdle(1)).toBe(1);
    expect(scheduler.size).toBe(1);
    // With nothing to deliver there is nothing to check; with work, a missing delivery throws.
    const bare = createMacrotaskScheduler<number>({ driver: 'manual' });
    expect(bare.runUntilIdle()).toBe(0);
    bare.enqueue('ext-a', 'hc-1', 0);
    expect(() => bare.runUntilIdle()).toThrow('no delivery function');
    expect(bare.size).toBe(1);
  });

  it('throws a NO_DELIVERY SluiceError on tick without a delivery function, and leaves the task queued', () => {
    const scheduler = createMacrotaskScheduler<string>({ driver: 'manual' });
    scheduler.enqueue('ext-a', 'hc-1', 'a');
    let thrown: unknown;
    try {
      scheduler.tick();
    } catch (error) {
      thrown = error;
    }
    expect(isSluiceError(thrown, 'NO_DELIVERY')).toBe(true);
    expect((thrown as Error).message).toBe('The macrotask scheduler has no delivery function');
    expect(scheduler.size).toBe(1);
  });

  it('a driver turn without a delivery function waits for setDelivery instead of throwing', () => {
    const { driver, drains } = steppedDriver();
    const delivered: string[] = [];
    const scheduler = createMacrotaskScheduler<string>({ driver });
    scheduler.enqueue('ext-a', 'hc-1', 'a');
    drains.shift()?.();
    expect(drains).toHaveLength(0);
    scheduler.setDelivery((task) => delivered.push(task.outcome));
    drains.shift()?.();
    expect(delivered).toEqual(['a']);
  });

  it('a delivery that throws ends its driver turn but not the queue: the next turn is armed', () => {
    const { driver, drains } = steppedDriver();
    const delivered: number[] = [];
    const scheduler = createMacrotaskScheduler<number>({
      driver,
      deliver: (task) => {
        if (task.outcome === 0) throw new Error('boom');
        delivered.push(task.outcome);
      },
    });
    for (let n = 0; n < 5; n += 1) scheduler.enqueue('ext-a', `hc-${n}`, n);
    expect(() => drains.shift()?.()).toThrow('boom');
    expect(scheduler.size).toBe(4);
    expect(drains).toHaveLength(1);
    drains.shift()?.();
    expect(delivered).toEqual([1, 2, 3, 4]);
    expect(scheduler.size).toBe(0);
  });

  it('in a driver turn, the hook of a delivery that throws runs before the error goes on, and no later hook runs', () => {
    const { driver, drains } = steppedDriver();
    const log: string[] = [];
    const scheduler = createMacrotaskScheduler<number>({
      driver,
      deliver: (task) => {
        log.push(`deliver ${task.outcome}`);
        if (task.outcome === 1) throw new Error('boom');
      },
    });
    for (let n = 0; n < 3; n += 1) scheduler.enqueue('ext-a', `hc-${n}`, n, () => log.push(`hook ${n}`));
    expect(() => drains.shift()?.()).toThrow('boom');
    expect(log).toEqual(['deliver 0', 'hook 0', 'deliver 1', 'hook 1']);
    expect(drains).toHaveLength(1);
    drains.shift()?.();
    expect(log.slice(4)).toEqual(['deliver 2', 'hook 2']);
  });

  it('in a driver turn, a hook that throws runs once and ends the turn; the next turn delivers the rest', () => {
    const { driver, drains } = steppedDriver();
    const hooks: number[] = [];
    const scheduler = createMacrotaskScheduler<number>({ driver, deliver: () => {} });
    for (let n = 0; n < 3; n += 1) {
      scheduler.enqueue('ext-a', `hc-${n}`, n, () => {
        hooks.push(n);
        if (n === 0) throw new Error('hook failed');
      });
    }
    expect(() => drains.shift()?.()).toThrow('hook failed');
    expect(hooks).toEqual([0]);
    expect(drains).toHaveLength(1);
    drains.shift()?.();
    expect(hooks).toEqual([0, 1, 2]);
  });

  it('when a delivery and its hook both throw, the hook runs once and its error is the one that goes on', () => {
    const { driver, drains } = steppedDriver();
    let hookRuns = 0;
    const scheduler = createMacrotaskScheduler<number>({
      driver,
      deliver: () => {
        throw new Error('delivery failed');
      },
    });
    scheduler.enqueue('ext-a', 'hc-1', 0, () => {
      hookRuns += 1;
      throw new Error('hook failed');
    });
    expect(() => drains.shift()?.()).toThrow('hook failed');
    expect(hookRuns).toBe(1);
    expect(scheduler.size).toBe(0);
  });

  it('drains on the clock right after each enqueue when the clock is the driver (virtual time)', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const delivered = new Subject<string>();
      const input = cold('-a--b-c|');
      const inputSubs = '  ^------!';
      const scheduler = createMacrotaskScheduler<string>({
        clock: testScheduler,
        driver: testScheduler,
        deliver: (task) => delivered.next(task.outcome),
      });
      input.subscribe((id) => scheduler.enqueue('ext-a', id, id));
      expectObservable(delivered).toBe('-a--b-c');
      expectSubscriptions(input.subscriptions).toBe(inputSubs);
    });
  });

  it('fires timers on the clock, separately from the queue; unsubscribe and dispose cancel them', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ expectObservable, time }) => {
      const fired = new Subject<string>();
      const scheduler = createMacrotaskScheduler<string>({ clock: testScheduler, driver: 'manual' });
      scheduler.setTimer(time('---|'), () => fired.next('a'));
      const cancelled = scheduler.setTimer(time('-----|'), () => fired.next('x'));
      scheduler.setTimer(time('--|'), () => cancelled.unsubscribe());
      scheduler.setTimer(time('------|'), () => fired.next('b'));
      scheduler.setTimer(time('-------|'), () => scheduler.dispose());
      scheduler.setTimer(time('--------|'), () => fired.next('y'));
      expect(scheduler.now()).toBe(0);
      expectObservable(fired).toBe('---a--b');
    });
  });

  it('a timer callback that enqueues leaves the delivery to the driver', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ expectObservable, time }) => {
      const delivered = new Subject<number>();
      const scheduler = createMacrotaskScheduler<number>({
        clock: testScheduler,
        driver: testScheduler,
        deliver: (task) => delivered.next(task.seq),
      });
      scheduler.setTimer(time('--|'), () => scheduler.enqueue('ext-a', 'hc-1', 0));
      scheduler.setTimer(time('----|'), () => {
        scheduler.enqueue('ext-a', 'hc-1', 1);
        scheduler.enqueue('ext-a', 'hc-2', 2);
      });
      expectObservable(delivered).toBe('--0-(12)', { 0: 0, 1: 1, 2: 2 });
    });
  });

  it('delivers at most `batch` macrotasks per driver turn, then schedules another turn', () => {
    const { driver, drains } = steppedDriver();
    const delivered: number[] = [];
    const scheduler = createMacrotaskScheduler<number>({
      driver,
      batch: 2,
      deliver: (task) => delivered.push(task.seq),
    });
    for (let n = 0; n < 5; n += 1) scheduler.enqueue('ext-a', 'hc-1', n);
    expect(drains).toHaveLength(1);
    drains.shift()?.();
    expect(delivered).toEqual([0, 1]);
    expect(drains).toHaveLength(1);
    drains.shift()?.();
    drains.shift()?.();
    expect(delivered).toEqual([0, 1, 2, 3, 4]);
    expect(drains).toHaveLength(0);
  });

  it('reads the clock at most once per turn, and only when something asks for the time', () => {
    const { driver, drains } = steppedDriver();
    let reads = 0;
    let time = 100;
    const clock: SchedulerLike = {
      now: () => {
        reads += 1;
        return time;
      },
      schedule: () => new Subscription(),
    };
    const seen: number[] = [];
    const scheduler = createMacrotaskScheduler<number>({
      clock,
      driver,
      deliver: (task) => {
        if (task.outcome % 2 === 1) seen.push(scheduler.now());
        time += 1;
      },
    });
    scheduler.enqueue('ext-a', 'hc-1', 0);
    drains.shift()?.();
    expect(reads).toBe(0);
    for (let n = 1; n < 6; n += 1) scheduler.enqueue('ext-a', 'hc-1', n);
    drains.shift()?.();
    expect(reads).toBe(1);
    expect(seen).toEqual([101, 101, 101]);
    // Outside a turn every call reads the clock: nothing of the turn's reading is kept.
    expect(scheduler.now()).toBe(106);
    time = 200;
    expect(scheduler.now()).toBe(200);
    expect(reads).toBe(3);
  });

  it('drains by itself on the event loop by default', async () => {
    const seen: number[] = [];
    const finished = deferred<void>();
    const scheduler = createMacrotaskScheduler<number>({
      deliver: (task) => {
        seen.push(task.outcome);
        if (seen.length === 200) finished.resolve();
      },
    });
    for (let n = 0; n < 200; n += 1) scheduler.enqueue('ext-a', 'hc-1', n);
    expect(seen).toEqual([]);
    await finished.promise;
    expect(seen).toEqual(Array.from({ length: 200 }, (_, n) => n));
  });

  it('default driver: one microtask turn right after the current job; dispose() disarms it, enqueue re-arms', async () => {
    const seen: number[] = [];
    const scheduler = createMacrotaskScheduler<number>({ deliver: (task) => seen.push(task.outcome) });
    scheduler.enqueue('ext-a', 'hc-1', 0);
    scheduler.enqueue('ext-a', 'hc-1', 1);
    expect(seen).toEqual([]);
    await Promise.resolve();
    expect(seen).toEqual([0, 1]);
    scheduler.enqueue('ext-a', 'hc-1', 2);
    scheduler.dispose();
    await macrotask();
    expect(seen).toEqual([0, 1]);
    expect(scheduler.size).toBe(1);
    scheduler.enqueue('ext-a', 'hc-1', 3);
    await Promise.resolve();
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('keeps FIFO order and its counts across compactions of a long queue', () => {
    const delivered: number[] = [];
    const scheduler = createMacrotaskScheduler<number>({
      driver: 'manual',
      deliver: (task) => delivered.push(task.outcome),
    });
    let next = 0;
    for (; next < 3000; next += 1) scheduler.enqueue('ext-a', 'hc-1', next);
    for (let n = 0; n < 2000; n += 1) scheduler.tick();
    for (; next < 3010; next += 1) scheduler.enqueue('ext-a', 'hc-1', next);
    expect(scheduler.size).toBe(1010);
    expect(scheduler.pending().map((task) => task.outcome)).toEqual(
      Array.from({ length: 1010 }, (_, n) => 2000 + n),
    );
    expect(scheduler.runUntilIdle()).toBe(1010);
    scheduler.enqueue('ext-a', 'hc-1', next);
    expect(scheduler.pending().map((task) => task.seq)).toEqual([3010]);
    scheduler.runUntilIdle();
    expect(delivered).toEqual(Array.from({ length: 3011 }, (_, n) => n));
  });

  it('validates its options before anything runs', () => {
    expect(() => createMacrotaskScheduler({ clock: 5 as never })).toThrow(
      new TypeError('Expected the `clock` option to be a SchedulerLike, got `5` (number)'),
    );
    expect(() => createMacrotaskScheduler({ driver: 'auto' as never })).toThrow(
      "Expected the `driver` option to be a SchedulerLike or 'manual', got `auto` (string)",
    );
    expect(() => createMacrotaskScheduler({ batch: 0 })).toThrow(
      'Expected the `batch` option to be a positive integer, got `0` (number)',
    );
    expect(() => createMacrotaskScheduler({ deliver: 'x' as never })).toThrow(
      'Expected the `deliver` option to be a function, got `x` (string)',
    );
    expect(() => createMacrotaskScheduler({ batchSize: 8 } as never)).toThrow(
      'Unknown `batchSize` option (known options: clock, driver, batch, deliver)',
    );
    expect(() => createMacrotaskScheduler(null as never)).toThrow(
      'Expected the options to be an object, got `null` (null)',
    );
  });
});
