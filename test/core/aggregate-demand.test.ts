import { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AggregateDemand, type Governor } from '../../src/core/aggregate-demand.js';
import { type Demand, Valve } from '../../src/core/demand.js';

/**
 * A group of consumers as a Subject keeps them: a live list of subscriptions, each leaving the
 * list when unsubscribed (before anything else it tears down), each with its own demand.
 */
function group(governor: Governor) {
  const members: Subscription[] = [];
  const demands = new Map<unknown, Demand | undefined>();
  const demand = new AggregateDemand(
    () => members,
    governor,
    (member) => demands.get(member),
  );
  const told: string[] = [];
  demand.onChange((paused) => told.push(paused ? 'pause' : 'resume'));
  const join = (memberDemand: Demand | undefined = new Valve()) => {
    const member = new Subscription(() => members.splice(members.indexOf(member), 1));
    demands.set(member, memberDemand);
    members.push(member);
    return { member, valve: memberDemand as Valve };
  };
  return { demand, told, join };
}

describe('AggregateDemand', () => {
  describe("governor 'slowest' (lossless)", () => {
    it('flows with no member, pauses while any member is paused, resumes once none is', () => {
      const { demand, told, join } = group('slowest');
      expect(demand.paused).toBe(false);
      const a = join();
      const b = join();
      expect(demand.paused).toBe(false);
      a.valve.pause();
      expect(demand.paused).toBe(true);
      b.valve.pause();
      a.valve.resume();
      expect(demand.paused).toBe(true);
      b.valve.resume();
      expect(demand.paused).toBe(false);
      expect(told).toEqual(['pause', 'resume']); // one notification per change of the group's state
    });

    it('a paused member that leaves releases the producer at once', () => {
      const { demand, told, join } = group('slowest');
      const fast = join();
      const slow = join();
      expect(demand.paused).toBe(false);
      slow.valve.pause();
      expect(told).toEqual(['pause']);
      slow.member.unsubscribe(); // the slow consumer `break`s
      expect(told).toEqual(['pause', 'resume']);
      expect(demand.paused).toBe(false);
      slow.valve.pause(); // a member that left no longer counts
      expect(told).toEqual(['pause', 'resume']);
      fast.valve.pause();
      expect(told).toEqual(['pause', 'resume', 'pause']);
    });

    it('a member with no demand (a plain subscribe()) never pauses the group, nor keeps it from pausing', () => {
      const { demand, join } = group('slowest');
      join(undefined);
      expect(demand.paused).toBe(false);
      const demanding = join();
      demanding.valve.pause();
      expect(demand.paused).toBe(true);
    });

    it('a member that joins already paused pauses the group: a reader of `paused` sees it and hears the resume; reading calls no listener', () => {
      const { demand, told, join } = group('slowest');
      join();
      expect(demand.paused).toBe(false);
      const late = new Valve();
      late.pause();
      join(late);
      // A producer notices the new member the next time it asks (it asks before every value).
      expect(demand.paused).toBe(true);
      expect(told).toEqual([]);
      late.resume(); // a producer that stopped on `paused` waits for this
      expect(told).toEqual(['resume']);
      expect(demand.paused).toBe(false);
    });

    it('refresh() tells the listeners at once about a member that joined paused', () => {
      const { demand, told, join } = group('slowest');
      join();
      expect(demand.paused).toBe(false);
      const late = new Valve();
      late.pause();
      join(late);
      demand.refresh();
      expect(told).toEqual(['pause']);
      demand.refresh();
      expect(told).toEqual(['pause']);
      late.resume();
      expect(told).toEqual(['pause', 'resume']);
    });

    it('forwards progress from any member (a consumer that still takes values while paused)', () => {
      const { demand, join } = group('slowest');
      const a = join();
      const b = join();
      let progress = 0;
      demand.onProgress(() => {
        progress += 1;
      });
      expect(demand.paused).toBe(false); // members are picked up when the state is asked for
      a.valve.progress();
      b.valve.progress();
      expect(progress).toBe(2);
      b.member.unsubscribe();
      b.valve.progress();
      expect(progress).toBe(2);
    });
  });

  describe("governor 'fastest'", () => {
    it('refresh() resumes a paused producer when a flowing member joins', () => {
      const { demand, told, join } = group('fastest');
      const a = join();
      expect(demand.paused).toBe(false);
      a.valve.pause();
      expect(told).toEqual(['pause']);
      join();
      demand.refresh();
      expect(told).toEqual(['pause', 'resume']);
    });

    it('pauses only while every member is paused', () => {
      const { demand, told, join } = group('fastest');
      expect(demand.paused).toBe(false);
      const a = join();
      const b = join();
      a.valve.pause();
      expect(demand.paused).toBe(false);
      b.valve.pause();
      expect(demand.paused).toBe(true);
      a.valve.resume();
      expect(demand.paused).toBe(false);
      expect(told).toEqual(['pause', 'resume']);
    });

    it("follows a member's state, not a notification older than it", () => {
      const { demand, join } = group('fastest');
      const a = join();
      // A member's own demand (any Demand) whose resume is told after it paused again.
      let paused = true;
      let listeners: ((paused: boolean) => void)[] = [];
      const late: Demand = {
        get paused() {
          return paused;
        },
        onChange: (listener) => {
          listeners.push(listener);
          return () => {
            listeners = listeners.filter((other) => other !== listener);
          };
        },
      };
      join(late);
      a.valve.pause();
      expect(demand.paused).toBe(true);
      for (const listener of listeners) listener(false); // stale: it is still paused
      expect(demand.paused).toBe(true);
      paused = false;
      for (const listener of listeners) listener(false);
      expect(demand.paused).toBe(false);
    });

    it('the last flowing member leaving pauses the group; the last member leaving lets it flow', () => {
      const { demand, told, join } = group('fastest');
      const a = join();
      const b = join();
      expect(demand.paused).toBe(false);
      a.valve.pause();
      b.member.unsubscribe();
      expect(told).toEqual(['pause']);
      a.member.unsubscribe();
      expect(told).toEqual(['pause', 'resume']);
      expect(demand.paused).toBe(false);
    });

    it('a member with no demand keeps it flowing', () => {
      const { demand, join } = group('fastest');
      const a = join();
      join(undefined);
      a.valve.pause();
      expect(demand.paused).toBe(false);
    });
  });

  describe('re-entrancy', () => {
    it('a listener that pushes values which re-pause a member is told the final state, in order', () => {
      const { demand, join } = group('slowest');
      const a = join();
      expect(demand.paused).toBe(false);
      // A producer pumping synchronously into a consumer with a buffer of 2 (a toAsyncIterable):
      // every resume lets it push until the consumer pauses again, inside the notification.
      let buffered = 0;
      let pushed = 0;
      const seen: string[] = [];
      demand.onChange((paused) => {
        seen.push(paused ? 'pause' : 'resume');
        while (!demand.paused && pushed < 10) {
          pushed += 1;
          buffered += 1;
          if (buffered >= 2) a.valve.pause();
        }
      });
      a.valve.pause();
      expect(seen).toEqual(['pause']);
      buffered = 0;
      a.valve.resume(); // the listener refills the buffer and re-pauses the member meanwhile
      expect(pushed).toBe(2);
      expect(demand.paused).toBe(true);
      expect(seen).toEqual(['pause', 'resume', 'pause']);
      buffered = 0;
      a.valve.resume();
      expect(pushed).toBe(4);
      expect(seen).toEqual(['pause', 'resume', 'pause', 'resume', 'pause']);
    });

    it('a listener that makes a member leave while being told does not skip the others', () => {
      const { demand, join } = group('slowest');
      const a = join();
      const b = join();
      expect(demand.paused).toBe(false);
      const seen: string[] = [];
      demand.onChange((paused) => {
        seen.push(`first:${paused}`);
        if (paused) a.member.unsubscribe(); // b is still paused: the group stays paused
      });
      demand.onChange((paused) => seen.push(`second:${paused}`));
      b.valve.pause();
      a.valve.pause();
      expect(seen).toEqual(['first:true', 'second:true']);
      b.valve.resume();
      expect(seen).toEqual(['first:true', 'second:true', 'first:false', 'second:false']);
    });
  });
});
