import { concat, concatMap, map, merge, Observable, of, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { Valve } from '../../src/core/demand.js';
import { SequenceError } from '../../src/core/errors/sequence-error.js';
import { SluiceError } from '../../src/core/errors/sluice-error.js';
import { demandOf, subscribeWithDemand } from '../../src/core/subscriber-chain.js';
import { checkSequence } from '../../src/operators/check-sequence.js';
import { joinRuns } from '../../src/operators/join-runs.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { chunk } from '../support/chunk.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const out = (sequence: number, content: string) => chunk(sequence, content);
const exit = (sequence: number, code: number) => chunk(sequence, { exitCode: code }, true, { kind: 'exit' });

describe('joinRuns', () => {
  it('renumbers two concatenated runs, keeps each end as a non-final event, and ends with one final event', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold('-a-(b|)', { a: out(0, 'one'), b: exit(1, 0) });
      const second = cold(' -c--(d|)', { c: out(0, 'two'), d: exit(1, 3) });
      const runs = cold('  (xy|)', { x: first, y: second });
      const expected = '   -a-bc--(de|)';
      expectObservable(
        runs.pipe(
          concatMap((run) => run),
          joinRuns(),
        ),
      ).toBe(expected, {
        a: out(0, 'one'),
        b: { ...exit(1, 0), metadata: { run: 0 }, isFinal: false },
        c: out(2, 'two'),
        d: { ...exit(3, 3), metadata: { run: 1 }, isFinal: false },
        e: { sequence: 4, kind: 'end', content: null, metadata: { runs: 2 }, isFinal: true },
      });
      expectSubscriptions(first.subscriptions).toBe('^--!');
      expectSubscriptions(second.subscriptions).toBe('---^---!');
    });
  });

  it("keeps the run's end at the frame it arrives, with its own metadata and the run's number", () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c-(d|)', {
        a: out(0, 'one'),
        b: { ...exit(1, 0), metadata: { reason: 'exit' } },
        c: out(0, 'two'),
        d: exit(1, 1),
      });
      expectObservable(source.pipe(joinRuns())).toBe('-a-b-c-(de|)', {
        a: out(0, 'one'),
        b: { ...exit(1, 0), metadata: { reason: 'exit', run: 0 }, isFinal: false },
        c: out(2, 'two'),
        d: { ...exit(3, 1), metadata: { run: 1 }, isFinal: false },
        e: { sequence: 4, kind: 'end', content: null, metadata: { runs: 2 }, isFinal: true },
      });
    });
  });

  it('numbers runs in the order they end when mergeMap interleaves them', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const slow = cold('-a----(b|)', { a: out(0, 'slow'), b: exit(1, 0) });
      const fast = cold('--c-(d|)', { c: out(0, 'fast'), d: exit(1, 0) });
      expectObservable(merge(slow, fast).pipe(joinRuns(), checkSequence())).toBe('-ac-d-(be|)', {
        a: out(0, 'slow'),
        c: out(1, 'fast'),
        d: { ...exit(2, 0), metadata: { run: 0 }, isFinal: false },
        b: { ...exit(3, 0), metadata: { run: 1 }, isFinal: false },
        e: { sequence: 4, kind: 'end', content: null, metadata: { runs: 2 }, isFinal: true },
      });
    });
  });

  it('a stream with no run at all still has exactly one final event', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<ChunkEvent<string>>('---|').pipe(joinRuns())).toBe('---(e|)', {
        e: { sequence: 0, kind: 'end', content: null, metadata: { runs: 0 }, isFinal: true },
      });
    });
  });

  it('passes an error through after the events before it, without a final event', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const failure = new SluiceError('EXEC_FAILED', 'Command failed with exit code 2');
      const source = cold('-a-b-#', { a: out(0, 'one'), b: exit(1, 0) }, failure);
      expectObservable(source.pipe(joinRuns())).toBe(
        '-a-b-#',
        { a: out(0, 'one'), b: { ...exit(1, 0), metadata: { run: 0 }, isFinal: false } },
        failure,
      );
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('makes a composed stream acceptable to sequenced() and checkSequence(), which reject it otherwise', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold<ChunkEvent<unknown>>('-a-b-c-(d|)', {
        a: out(0, 'one'),
        b: exit(1, 0),
        c: out(0, 'two'),
        d: exit(1, 0),
      });
      const joined = source.pipe(
        joinRuns(),
        sequenced(),
        checkSequence(),
        map((event) => event.sequence),
      );
      expectObservable(joined).toBe('-a-b-c-(de|)', { a: 0, b: 1, c: 2, d: 3, e: 4 });
      const error = new SequenceError({ rule: 'final-before-complete', expected: undefined, received: 0 });
      expectObservable(
        source.pipe(
          sequenced(),
          map((event) => event.sequence),
        ),
      ).toBe('-a---#', { a: 0 }, error);
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    let emitted = 0;
    const source = new Observable<ChunkEvent<string>>((subscriber) => {
      for (let n = 0; n < 10 && !subscriber.closed; n += 1) {
        emitted += 1;
        subscriber.next(n % 2 === 0 ? out(0, String(n)) : { ...exit(1, 0), content: String(n) });
      }
      subscriber.complete();
    });
    source.pipe(joinRuns(), take(3)).subscribe();
    expect(emitted).toBe(3);
  });

  it("lets each run see its consumer's demand (nothing is buffered)", () => {
    const found: unknown[] = [];
    const run = new Observable<ChunkEvent<string>>((subscriber) => {
      found.push(demandOf(subscriber));
      subscriber.next(exit(0, 0) as unknown as ChunkEvent<string>);
      subscriber.complete();
    });
    const valve = new Valve();
    subscribeWithDemand(concat(run, run).pipe(joinRuns()), valve, {});
    expect(found).toEqual([valve, valve]);
  });

  it('works on plain values of one run too (a single run gets its end kept and one final event)', async () => {
    const seen: ChunkEvent<unknown>[] = [];
    of(out(0, 'a'), exit(1, 0))
      .pipe(joinRuns())
      .subscribe((event) => seen.push(event));
    expect(seen.map((event) => [event.sequence, event.kind, event.isFinal])).toEqual([
      [0, 'stdout', false],
      [1, 'exit', false],
      [2, 'end', true],
    ]);
  });
});
