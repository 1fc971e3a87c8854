import { VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { optionError } from '../core/option-error.js';

/**
 * Moves a `VirtualTimeScheduler` exactly `ms` forward: everything due by then runs, in time
 * order, and `clock.now()` ends at the target even if nothing was due. Outside `TestScheduler.run`
 * this is how a test steps a clock shared by `exec`, the operators and a {@link fakeExec}, with
 * `await`s in between for promise-based consumers (`toAsyncIterable`). A `TestScheduler` is
 * refused: inside `run`, use its `flush` and marbles.
 *
 * @example
 * ```ts
 * import { VirtualTimeScheduler } from 'rxjs';
 * import { advanceVirtualTime } from 'sluice/testing';
 * const clock = new VirtualTimeScheduler();
 * clock.schedule(() => console.log('at', clock.now()), 10);
 * advanceVirtualTime(clock, 25); // logs 'at 10'; clock.now() === 25
 * ```
 */
export function advanceVirtualTime(clock: VirtualTimeScheduler, ms: number): void {
  if (!(clock instanceof VirtualTimeScheduler) || clock instanceof TestScheduler) {
    throw optionError('clock', 'a VirtualTimeScheduler (not a TestScheduler)', clock, 'argument');
  }
  if (!Number.isInteger(ms) || ms < 0) throw optionError('ms', 'a non-negative integer', ms, 'argument');
  const target = clock.now() + ms;
  clock.schedule(() => {}, ms);
  const { maxFrames } = clock;
  clock.maxFrames = target;
  try {
    clock.flush();
  } finally {
    clock.maxFrames = maxFrames;
  }
}
