import { type Observable, of } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import { type ChunkEvent, type EndSentinel, type ExecEvent, exec } from '../../src/index.js';
import {
  bounded,
  checkSequence,
  coalesce,
  sequenced,
  share,
  shareReplay,
  stallTimeout,
} from '../../src/operators/index.js';
import { typeOnly } from '../support/type-only.js';

// Type-level tests of the chunk operators (`sluice/operators`): what goes in and what comes out.
// Checked by `tsc` (tsconfig includes test/); nothing in them runs (typeOnly).
describe('chunk operators', () => {
  const lines = exec('make');

  it('sequenced turns inputs into sequenced events of the same content type', () =>
    typeOnly(() => {
      const inputs = of({ kind: 'progress', content: 0.5 });
      expectTypeOf(inputs.pipe(sequenced())).toEqualTypeOf<Observable<ChunkEvent<number>>>();
      // @ts-expect-error: an input needs a kind
      of({ content: 1 }).pipe(sequenced());
    }));

  it('checkSequence keeps the event type', () =>
    typeOnly(() => {
      expectTypeOf(lines.pipe(checkSequence())).toEqualTypeOf<Observable<ExecEvent>>();
    }));

  it('bounded and stallTimeout add the sentinel final event they may end with (its own kind, `end`)', () =>
    typeOnly(() => {
      expectTypeOf(lines.pipe(bounded({ bufferSize: 64, strategy: 'sliding' }))).toEqualTypeOf<
        Observable<ExecEvent | EndSentinel>
      >();
      expectTypeOf(lines.pipe(stallTimeout({ ms: 1000 }))).toEqualTypeOf<
        Observable<ExecEvent | EndSentinel>
      >();
      // @ts-expect-error: not a strategy
      bounded({ strategy: 'drop-everything' });
    }));

  it('coalesce emits batches', () =>
    typeOnly(() => {
      expectTypeOf(lines.pipe(coalesce({ maxDelayMs: 16 }))).toEqualTypeOf<Observable<ExecEvent[]>>();
    }));

  it('only take chunk events', () =>
    typeOnly(() => {
      // @ts-expect-error: numbers are no chunk events
      of(1, 2).pipe(checkSequence());
      // @ts-expect-error: numbers are no chunk events
      of(1, 2).pipe(coalesce());
    }));

  it("share and shareReplay keep the type, as RxJS's do", () =>
    typeOnly(() => {
      expectTypeOf(lines.pipe(share())).toEqualTypeOf<Observable<ExecEvent>>();
      expectTypeOf(lines.pipe(share({ governor: 'fastest' }))).toEqualTypeOf<Observable<ExecEvent>>();
      expectTypeOf(lines.pipe(shareReplay({ bufferSize: 10, refCount: true }))).toEqualTypeOf<
        Observable<ExecEvent>
      >();
      expectTypeOf(of(1).pipe(share())).toEqualTypeOf<Observable<number>>();
      // @ts-expect-error: not a governor
      share({ governor: 'average' });
    }));
});
