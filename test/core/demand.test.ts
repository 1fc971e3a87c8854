import { filter, map, Observable, scan, takeWhile, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { currentDemand, type Demand, subscribeWithDemand, Valve } from '../../src/core/demand.js';

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

describe('subscribe-time demand', () => {
  const probe = (seen: Array<Demand | undefined>) =>
    new Observable<number>((subscriber) => {
      seen.push(currentDemand());
      subscriber.next(1);
      subscriber.complete();
    });

  it('is undefined for a plain subscribe', () => {
    const seen: Array<Demand | undefined> = [];
    probe(seen).subscribe();
    expect(seen).toEqual([undefined]);
  });

  it('reaches the producer through a chain of synchronous operators', () => {
    const seen: Array<Demand | undefined> = [];
    const valve = new Valve();
    subscribeWithDemand(valve, () =>
      probe(seen)
        .pipe(
          map((n) => n * 2),
          filter(() => true),
          tap(() => undefined),
          scan((a, n) => a + n, 0),
          takeWhile(() => true),
        )
        .subscribe(),
    );
    expect(seen).toEqual([valve]);
  });

  it('is restored afterwards, also when subscribe throws, and nests', () => {
    const outer = new Valve();
    const inner = new Valve();
    const seen: Array<Demand | undefined> = [];
    subscribeWithDemand(outer, () => {
      subscribeWithDemand(inner, () => probe(seen).subscribe());
      probe(seen).subscribe();
      expect(() =>
        subscribeWithDemand(inner, () => {
          throw new Error('boom');
        }),
      ).toThrow('boom');
      probe(seen).subscribe();
    });
    probe(seen).subscribe();
    expect(seen).toEqual([inner, outer, outer, undefined]);
  });

  it('is shared through the global registry, so the ESM and CJS builds agree', () => {
    const valve = new Valve();
    const seen = subscribeWithDemand(valve, () => (globalThis as any)[Symbol.for('sluice.demand.context')]);
    expect(seen).toBe(valve);
  });
});
