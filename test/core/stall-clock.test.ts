import { Subject } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { StallClock } from '../../src/core/stall-clock.js';
import { newTestScheduler } from '../support/test-scheduler.js';

/** A stall clock of `ms` on a virtual clock; `stalls` emits `s` per stall, `timers` counts timers. */
function setup(testScheduler: TestScheduler, ms: number) {
  let timers = 0;
  const stalls = new Subject<string>();
  const clock = {
    now: () => testScheduler.now(),
    setTimer: (delayMs: number, callback: () => void) => {
      timers += 1;
      return testScheduler.schedule(callback, delayMs);
    },
  };
  const stall = new StallClock(clock, ms, () => stalls.next('s'));
  return { stall, stalls, timers: () => timers };
}

describe('StallClock', () => {
  it('fires once, exactly `ms` after start()', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ expectObservable }) => {
      const { stall, stalls } = setup(testScheduler, 5);
      stall.start();
      testScheduler.schedule(() => stall.start(), 2); // already running: no-op
      expectObservable(stalls).toBe('-----s');
    });
  });

  it('is disabled by ms 0', () => {
    const testScheduler = newTestScheduler();
    let count: () => number = () => 0;
    testScheduler.run(({ expectObservable }) => {
      const { stall, stalls, timers } = setup(testScheduler, 0);
      count = timers;
      stall.start();
      expectObservable(stalls).toBe('');
    });
    expect(count()).toBe(0);
  });

  it('fires `ms` after the last start() when stopped and restarted meanwhile, with one timer per period', () => {
    const testScheduler = newTestScheduler();
    let count: () => number = () => 0;
    testScheduler.run(({ expectObservable }) => {
      const { stall, stalls, timers } = setup(testScheduler, 5);
      count = timers;
      stall.start();
      // A channel at capacity: a slot frees and fills again every frame, up to frame 3.
      for (let frame = 1; frame <= 3; frame += 1) {
        testScheduler.schedule(() => {
          stall.stop();
          stall.start();
        }, frame);
      }
      // The first timer expires at 5, finds the clock restarted at 3, and waits the 3 frames left.
      expectObservable(stalls).toBe('--------s');
    });
    expect(count()).toBe(2);
  });

  it('never fires once stopped: the pending timer lapses without another one', () => {
    const testScheduler = newTestScheduler();
    let count: () => number = () => 0;
    testScheduler.run(({ expectObservable }) => {
      const { stall, stalls, timers } = setup(testScheduler, 5);
      count = timers;
      stall.start();
      testScheduler.schedule(() => stall.stop(), 2);
      expectObservable(stalls).toBe('');
    });
    expect(count()).toBe(1);
  });

  it('starts a new timer when started again after the old one lapsed', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ expectObservable }) => {
      const { stall, stalls } = setup(testScheduler, 3);
      stall.start();
      testScheduler.schedule(() => stall.stop(), 1);
      testScheduler.schedule(() => stall.start(), 6);
      expectObservable(stalls).toBe('---------s');
    });
  });

  it('dispose() cancels the pending timer', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ expectObservable }) => {
      const { stall, stalls } = setup(testScheduler, 5);
      stall.start();
      testScheduler.schedule(() => stall.dispose(), 4);
      expectObservable(stalls).toBe('');
    });
  });

  it('a stream toggling at capacity 10 000 times in one frame schedules a single timer', () => {
    const testScheduler = newTestScheduler();
    let count: () => number = () => 0;
    testScheduler.run(({ expectObservable }) => {
      const { stall, stalls, timers } = setup(testScheduler, 2);
      count = timers;
      for (let n = 0; n < 10_000; n += 1) {
        stall.start();
        stall.stop();
      }
      stall.start();
      expectObservable(stalls).toBe('--s');
    });
    expect(count()).toBe(1);
  });

  it('restart() starts a running clock over, and does nothing to a stopped one; since says when', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ expectObservable }) => {
      const { stall, stalls } = setup(testScheduler, 4);
      stall.restart(); // not running: no-op
      stall.start();
      testScheduler.schedule(() => stall.restart(), 3);
      testScheduler.schedule(() => expect(stall.since).toBe(3), 5);
      expectObservable(stalls).toBe('-------s');
    });
  });

  it('runs on an RxJS scheduler too (StallClock.on)', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ expectObservable }) => {
      const stalls = new Subject<string>();
      const stall = StallClock.on(testScheduler, 3, () => stalls.next('s'));
      testScheduler.schedule(() => stall.start(), 2);
      expectObservable(stalls).toBe('-----s');
    });
  });
});
