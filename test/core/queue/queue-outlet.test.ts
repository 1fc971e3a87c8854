import { describe, expect, it } from 'vitest';
import { Valve } from '../../../src/core/demand.js';
import { DemandQueue, type QueueEnding } from '../../../src/core/queue/demand-queue.js';
import { Credit, DemandGate, InFlight } from '../../../src/core/queue/queue-outlet.js';

/** A queue stand-in that counts how often an outlet wakes it. */
function listener() {
  return {
    drains: 0,
    drain() {
      this.drains += 1;
    },
  };
}

describe('the outlets wake the queue they watch', () => {
  it('Credit: every request() calls queue.drain(), and nothing after the returned stop()', () => {
    const credit = new Credit();
    const queue = listener();
    const stop = credit.watch(queue);
    credit.request(2);
    credit.request(Number.POSITIVE_INFINITY);
    expect(queue.drains).toBe(2);
    stop();
    credit.request(1);
    expect(queue.drains).toBe(2);
  });

  it('InFlight: hold() and release() call queue.drain(), release(n, false) does not; nothing after stop()', () => {
    const inFlight = new InFlight();
    const queue = listener();
    const stop = inFlight.watch(queue);
    inFlight.hold(3);
    inFlight.release(1);
    inFlight.release(1, false);
    expect(queue.drains).toBe(2);
    expect(inFlight.held).toBe(1);
    stop();
    inFlight.release(1);
    expect(queue.drains).toBe(2);
  });

  it('InFlight with credit: open while credit is left, each value out spends one and is held; request() wakes', () => {
    const inFlight = new InFlight(0);
    const queue = listener();
    const stop = inFlight.watch(queue);
    expect(inFlight.open).toBe(false);
    inFlight.request(2);
    expect([inFlight.open, inFlight.count, queue.drains]).toEqual([true, 2, 1]);
    inFlight.sent();
    inFlight.sent();
    expect([inFlight.open, inFlight.count, inFlight.held]).toEqual([false, 0, 2]);
    inFlight.release(1);
    expect([inFlight.open, inFlight.held]).toEqual([false, 1]); // a release frees a slot, not credit
    inFlight.request(Number.POSITIVE_INFINITY);
    inFlight.sent();
    expect([inFlight.open, inFlight.count, inFlight.held]).toEqual([true, Number.POSITIVE_INFINITY, 2]);
    expect(new InFlight().open).toBe(true); // without credit given: no limit
    const drains = queue.drains;
    stop();
    inFlight.request(1);
    expect(queue.drains).toBe(drains);
  });

  it('DemandGate: each change of the demand calls queue.drain(); nothing after stop()', () => {
    const demand = new Valve();
    const queue = listener();
    const stop = new DemandGate(demand).watch(queue);
    demand.pause();
    demand.resume();
    expect(queue.drains).toBe(2);
    stop();
    demand.pause();
    expect(queue.drains).toBe(2);
  });
});

/** Options as a class: `deliver` and `finish` are methods that use `this`. */
class Recorder {
  readonly highWater = 2;
  readonly log: string[] = [];
  deliver(value: string): void {
    this.log.push(value);
  }
  finish(ending: QueueEnding): void {
    this.log.push(ending.error ? 'error' : 'end');
  }
}

describe('DemandQueue with options that are a class instance', () => {
  it('calls deliver and finish as its methods, in order, once the credit lets them out', () => {
    const options = new Recorder();
    const credit = new Credit();
    const queue = new DemandQueue<string>(options, credit);
    queue.push('a');
    queue.push('b');
    queue.end({ error: false });
    expect(options.log).toEqual([]);
    expect(queue.producerValve.paused).toBe(true); // highWater 2, read from the instance
    credit.request(1);
    expect(options.log).toEqual(['a']);
    credit.request(1);
    expect(options.log).toEqual(['a', 'b', 'end']);
  });
});
