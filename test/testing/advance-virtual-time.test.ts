import { VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { advanceVirtualTime } from '../../src/testing/index.js';

describe('advanceVirtualTime', () => {
  it('runs what is due, in time order, and stops exactly at the target', () => {
    const clock = new VirtualTimeScheduler();
    const ran: string[] = [];
    clock.schedule(() => ran.push(`b@${clock.now()}`), 20);
    clock.schedule(() => {
      ran.push(`a@${clock.now()}`);
      clock.schedule(() => ran.push(`c@${clock.now()}`), 5);
    }, 10);
    clock.schedule(() => ran.push(`late@${clock.now()}`), 40);
    advanceVirtualTime(clock, 25);
    expect(ran).toEqual(['a@10', 'c@15', 'b@20']);
    expect(clock.now()).toBe(25);
    advanceVirtualTime(clock, 0);
    expect(clock.now()).toBe(25);
    advanceVirtualTime(clock, 15);
    expect(ran.at(-1)).toBe('late@40');
  });

  it('refuses a TestScheduler and a bad duration, naming the argument', () => {
    expect(() => advanceVirtualTime(new TestScheduler(() => {}), 1)).toThrow(
      'Expected the `clock` argument to be a VirtualTimeScheduler (not a TestScheduler)',
    );
    expect(() => advanceVirtualTime(new VirtualTimeScheduler(), -1)).toThrow(
      'Expected the `ms` argument to be a non-negative integer, got `-1` (number)',
    );
  });
});
