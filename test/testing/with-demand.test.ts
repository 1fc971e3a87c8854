import { Observable, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Demand } from '../../src/core/demand.js';
import { Valve } from '../../src/core/demand.js';
import { demandOf } from '../../src/core/subscriber-chain.js';
import { withDemand } from '../../src/testing/index.js';

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
