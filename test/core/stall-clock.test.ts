import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { StallClock } from '../../src/core/stall-clock.js';
import { newTestScheduler } from '../support/test-scheduler.js';

/**
 * Runs a stall clock of `ms` on a virtual clock: `drive` starts and stops it, `at(frame, work)`
 * schedules more; the stalls (`s` each) must make `marble`. Returns how many timers it set.
 */
function runClock(
  ms: number,
  drive: (stall: StallClock, at: (frame: number, work: () => void) => void) => void,
  marble: string,
): number {
  const testScheduler = newTestScheduler();
  let timers = 0;
  testScheduler.run(({ expectObservable }) => {
    const stalls = new Subject<string>();
    const clock = {
      now: () => testScheduler.now(),
      setTimer: (delayMs: number, callback: () => void) => {
        timers += 1;
        return testScheduler.schedule(callback, delayMs);
      },
    };
    const stall = new StallClock(clock, ms, () => stalls.next('s'));
    drive(stall, (frame, work) => testScheduler.schedule(work, frame));
    expectObservable(stalls).toBe(marble);
  });
  return timers;
}

describe('StallClock', () => {
  it('fires once, exactly `ms` after start()', () => {
    runClock(
      5,
      (stall, at) => {
        stall.start();
        at(2, () => stall.start()); // already running: no-op
      },
      '-----s',
    );
  });

  it('is disabled by ms 0', () => {
    expect(runClock(0, (stall) => stall.start(), '')).toBe(0);
  });

  it('fires `ms` after the last start() when stopped and restarted meanwhile, with one timer per period', () => {
    const timers = runClock(
      5,
      (stall, at) => {
        stall.start();
        // A channel at capacity: a slot frees and fills again every frame, up to frame 3.
        for (let frame = 1; frame <= 3; frame += 1) {
          at(frame, () => {
            stall.stop();
            stall.start();
          });
        }
      },
      // The first timer expires at 5, finds the clock restarted at 3, and waits the 3 frames left.
      '--------s',
    );
    expect(timers).toBe(2);
  });

  it('never fires once stopped: the pending timer lapses without another one', () => {
    const timers = runClock(
      5,
      (stall, at) => {
        stall.start();
        at(2, () => stall.stop());
      },
      '',
    );
    expect(timers).toBe(1);
  });

  it('starts a new timer when started again after the old one lapsed', () => {
    runClock(
      3,
      (stall, at) => {
        stall.start();
        at(1, () => stall.stop());
        at(6, () => stall.start());
      },
      '---------s',
    );
  });

  it('dispose() cancels the pending timer', () => {
    runClock(
      5,
      (stall, at) => {
        stall.start();
        at(4, () => stall.dispose());
      },
      '',
    );
  });

  it('a stream toggling at capacity 10 000 times in one frame schedules a single timer', () => {
    const timers = runClock(
      2,
      (stall) => {
        for (let n = 0; n < 10_000; n += 1) {
          stall.start();
          stall.stop();
        }
        stall.start();
      },
      '--s',
    );
    expect(timers).toBe(1);
  });

  it('restart() starts a running clock over, and does nothing to a stopped one; since says when', () => {
    const since: number[] = [];
    runClock(
      4,
      (stall, at) => {
        stall.restart(); // not running: no-op
        stall.start();
        at(3, () => stall.restart());
        at(5, () => since.push(stall.since));
      },
      '-------s',
    );
    expect(since).toEqual([3]);
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
