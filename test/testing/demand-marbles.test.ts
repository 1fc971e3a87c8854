import { Observable, take, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Demand } from '../../src/core/demand.js';
import { Valve } from '../../src/core/demand.js';
import { demandOf } from '../../src/core/subscriber-chain.js';
import { demandMarbles, withDemand } from '../../src/testing/index.js';

describe('demandMarbles', () => {
  it('pauses at `p` and resumes at `r`, at frame times of the given scheduler', () => {
    const scheduler = new VirtualTimeScheduler();
    const valve = demandMarbles('p--r 10ms p', scheduler);
    const changes: string[] = [];
    valve.onChange((paused) => changes.push(`${scheduler.now()}:${paused ? 'p' : 'r'}`));
    expect(valve.paused).toBe(true);
    scheduler.flush();
    expect(changes).toEqual(['3:r', '14:p']);
  });

  it('accepts only p and r', () => {
    expect(() => demandMarbles('--x')).toThrow(
      "Expected the `marbles` argument to be a diagram of 'p' (pause) and 'r' (resume)",
    );
    expect(() => demandMarbles('--p-|')).toThrow(
      "a diagram of 'p' (pause) and 'r' (resume), got `--p-|` (string)",
    );
  });
});

describe('withDemand', () => {
  it('subscribes the source with the demand, which reaches a producer through synchronous operators', () => {
    const seen: Array<Demand | undefined> = [];
    const probe = new Observable<number>((subscriber) => {
      seen.push(demandOf(subscriber));
      subscriber.complete();
    });
    const valve = new Valve();
    withDemand(valve, probe).subscribe();
    withDemand(undefined, probe).subscribe();
    expect(seen).toEqual([valve, undefined]);
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const produced: number[] = [];
    const synchronous = new Observable<number>((subscriber) => {
      for (let n = 0; !subscriber.closed && n < 10; n += 1) {
        produced.push(n);
        subscriber.next(n);
      }
    });
    withDemand(new Valve(), synchronous).pipe(take(3)).subscribe();
    expect(produced).toEqual([0, 1, 2]);
  });
});
