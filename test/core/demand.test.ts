import { filter, map, Observable, Subscriber, Subscription, scan, takeWhile, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type Demand, Valve } from '../../src/core/demand.js';
import { demandOf, subscribeWithDemand } from '../../src/core/subscriber-chain.js';

describe('Valve', () => {
  it('notifies listeners only on a change of state, in order', () => {
    const valve = new Valve();
    const seen: string[] = [];
    valve.onChange((paused) => seen.push(`a:${paused}`));
    const stop = valve.onChange((paused) => seen.push(`b:${paused}`));
    expect(valve.paused).toBe(false);
    valve.resume();
    valve.pause();
    valve.pause();
    stop();
    valve.resume();
    expect(seen).toEqual(['a:true', 'b:true', 'a:false']);
  });

  it('lets a listener remove itself while being notified', () => {
    const valve = new Valve();
    const seen: number[] = [];
    const stop = valve.onChange(() => {
      seen.push(1);
      stop();
    });
    valve.onChange(() => seen.push(2));
    valve.pause();
    valve.resume();
    expect(seen).toEqual([1, 2, 2]);
  });

  it('notifies the listeners of when the change began: one added meanwhile waits for the next change', () => {
    const valve = new Valve();
    const seen: string[] = [];
    let stopB = () => {};
    valve.onChange((paused) => {
      seen.push(`a:${paused}`);
      stopB(); // removing a later listener does not skip it for this change
      valve.onChange((again) => seen.push(`c:${again}`));
    });
    stopB = valve.onChange((paused) => seen.push(`b:${paused}`));
    valve.pause();
    expect(seen).toEqual(['a:true', 'b:true']);
    valve.resume();
    expect(seen).toEqual(['a:true', 'b:true', 'a:false', 'c:false']);
  });

  it('a listener that changes the state back while being told: every listener is told the newest state last', () => {
    const valve = new Valve();
    valve.pause();
    const seen: string[] = [];
    // A consumer that refills its buffer from a resume and is full again at once.
    valve.onChange((paused) => {
      seen.push(`a:${paused}`);
      if (!paused) valve.pause();
    });
    valve.onChange((paused) => seen.push(`b:${paused}`));
    valve.resume();
    expect(valve.paused).toBe(true);
    // b never hears the stale resume after the pause (it would think the valve flows).
    expect(seen).toEqual(['a:false', 'a:true', 'b:true']);
  });

  it('keeps one registration per listener, like a Set', () => {
    const valve = new Valve();
    const seen: boolean[] = [];
    const listener = (paused: boolean) => seen.push(paused);
    valve.onChange(listener);
    const stop = valve.onChange(listener);
    valve.pause();
    stop();
    valve.resume();
    expect(seen).toEqual([true]);
  });
});

describe('Valve progress', () => {
  it('tells progress listeners each time the consumer reports a take, until they stop listening', () => {
    const valve = new Valve();
    let seen = 0;
    const stop = valve.onProgress(() => {
      seen += 1;
    });
    valve.progress();
    valve.progress();
    stop();
    valve.progress();
    expect(seen).toBe(2);
  });
});

describe('subscribeWithDemand', () => {
  const probe = (seen: Array<Demand | undefined>) =>
    new Observable<number>((subscriber) => {
      seen.push(demandOf(subscriber));
      subscriber.next(1);
      subscriber.complete();
    });

  it('a plain subscribe carries none', () => {
    const seen: Array<Demand | undefined> = [];
    probe(seen).subscribe();
    expect(seen).toEqual([undefined]);
  });

  it('reaches the producer through a chain of synchronous operators, and delivers to the observer', () => {
    const seen: Array<Demand | undefined> = [];
    const values: number[] = [];
    const valve = new Valve();
    let completed = false;
    subscribeWithDemand(
      probe(seen).pipe(
        map((n) => n * 2),
        filter(() => true),
        tap(() => undefined),
        scan((a, n) => a + n, 0),
        takeWhile(() => true),
      ),
      valve,
      { next: (value) => values.push(value), complete: () => (completed = true) },
    );
    expect(seen).toEqual([valve]);
    expect(values).toEqual([2]);
    expect(completed).toBe(true);
  });

  it('a Subscriber of your own carries the demand itself', () => {
    const seen: Array<Demand | undefined> = [];
    const valve = new Valve();
    const values: number[] = [];
    const outer = new (class extends Subscriber<number> {
      protected override _next(value: number): void {
        values.push(value);
      }
    })();
    const subscription = subscribeWithDemand(probe(seen), valve, outer);
    expect(subscription).toBe(outer);
    expect(seen).toEqual([valve]);
    expect(values).toEqual([1]);
  });

  it('an owner stops a synchronous source mid-way when unsubscribed from a callback', () => {
    const emitted: number[] = [];
    const source = new Observable<number>((subscriber) => {
      for (let n = 0; n < 100 && !subscriber.closed; n += 1) {
        emitted.push(n);
        subscriber.next(n);
      }
    });
    const owner = new Subscription();
    subscribeWithDemand(
      source,
      new Valve(),
      { next: (n: number) => (n === 2 ? owner.unsubscribe() : undefined) },
      owner,
    );
    expect(emitted).toEqual([0, 1, 2]);
  });
});
