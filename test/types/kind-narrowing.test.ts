import { of } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import { type ExecResult, exec, type HttpEndInfo, http } from '../../src/index.js';
import {
  bounded,
  checkSequence,
  coalesce,
  concatAll,
  concatMap,
  joinRuns,
  mergeAll,
  mergeMap,
  mergeScan,
  share,
  shareReplay,
  stallTimeout,
  zip,
  zipAll,
  zipWith,
} from '../../src/operators/index.js';
import { typeOnly } from '../support/type-only.js';

// A user narrows an event on its `kind` and reads the content that kind carries: after
// `kind === 'exit'`, an `exec` event's content is the ExecResult, not `ExecResult | null`. These
// tests pin that through every operator of `sluice/operators` that passes events on: an operator's
// own final event (a sentinel) has its own literal kind, so it never joins another kind's branch.
// Checked by `tsc` (tsconfig includes test/); nothing in them runs (typeOnly).

/** What the user writes: narrow on `exit`, then read the result. Compiles only if narrowing holds. */
function readsExit(event: { readonly kind: 'exit'; readonly content: ExecResult }): number | null {
  return event.content.exitCode;
}

describe('narrowing on kind after each operator of sluice/operators', () => {
  const lines = exec('make');

  it('stallTimeout and bounded: the sentinel they may end with is its own kind', () =>
    typeOnly(() => {
      lines.pipe(stallTimeout({ ms: 1000 })).subscribe((event) => {
        if (event.kind === 'exit') readsExit(event);
        if (event.kind === 'stdout') expectTypeOf(event.content).toEqualTypeOf<string>();
        if (event.kind === 'end') expectTypeOf(event.content).toEqualTypeOf<null>();
      });
      lines.pipe(bounded({ bufferSize: 8, strategy: 'dropping' })).subscribe((event) => {
        if (event.kind === 'exit') readsExit(event);
        if (event.kind === 'stderr') expectTypeOf(event.content).toEqualTypeOf<string>();
      });
      lines.pipe(bounded(), stallTimeout()).subscribe((event) => {
        if (event.kind === 'exit') expectTypeOf(event.content.exitCode).toEqualTypeOf<number | null>();
      });
    }));

  it("an http stream's own end keeps its info beside the stall sentinel's null", () =>
    typeOnly(() => {
      http('http://127.0.0.1/')
        .pipe(stallTimeout())
        .subscribe((event) => {
          if (event.kind === 'body') expectTypeOf(event.content).toEqualTypeOf<Uint8Array>();
          if (event.kind === 'end') expectTypeOf(event.content).toEqualTypeOf<HttpEndInfo | null>();
        });
    }));

  it('checkSequence, share and shareReplay keep the kinds', () =>
    typeOnly(() => {
      lines.pipe(checkSequence()).subscribe((event) => event.kind === 'exit' && readsExit(event));
      lines.pipe(share()).subscribe((event) => event.kind === 'exit' && readsExit(event));
      lines
        .pipe(share({ governor: 'fastest' }))
        .subscribe((event) => event.kind === 'exit' && readsExit(event));
      lines
        .pipe(shareReplay({ bufferSize: 4, refCount: true }))
        .subscribe((event) => event.kind === 'exit' && readsExit(event));
    }));

  it('coalesce keeps the kinds inside each batch', () =>
    typeOnly(() => {
      lines.pipe(stallTimeout(), coalesce({ maxDelayMs: 16 })).subscribe((batch) => {
        for (const event of batch) if (event.kind === 'exit') readsExit(event);
      });
    }));

  it('joinRuns keeps the kind of each run end, and ends with its own', () =>
    typeOnly(() => {
      of('a', 'b')
        .pipe(
          concatMap((name) => exec(name)),
          joinRuns(),
        )
        .subscribe((event) => {
          if (event.kind === 'exit') readsExit(event);
          if (event.kind === 'end') expectTypeOf(event.metadata.runs).toEqualTypeOf<number>();
        });
    }));

  it('the buffering operators keep the kinds of what they flatten or pass on', () =>
    typeOnly(() => {
      const runs = of('a', 'b');
      runs.pipe(concatMap((name) => exec(name).pipe(stallTimeout()))).subscribe((event) => {
        if (event.kind === 'exit') readsExit(event);
      });
      runs.pipe(mergeMap((name) => exec(name).pipe(bounded()), 2)).subscribe((event) => {
        if (event.kind === 'exit') readsExit(event);
      });
      of(lines.pipe(stallTimeout()))
        .pipe(concatAll())
        .subscribe((event) => event.kind === 'exit' && readsExit(event));
      of(lines.pipe(stallTimeout()))
        .pipe(mergeAll(2))
        .subscribe((event) => event.kind === 'exit' && readsExit(event));
      lines
        .pipe(
          stallTimeout(),
          mergeScan(
            (failed: number, event) => of(event.kind === 'exit' ? failed + (readsExit(event) ?? 1) : failed),
            0,
            1,
          ),
        )
        .subscribe((failed) => expectTypeOf(failed).toEqualTypeOf<number>());
    }));

  it('the zips keep the kinds in each slot', () =>
    typeOnly(() => {
      const stalled = lines.pipe(stallTimeout());
      zip(stalled, lines).subscribe(([a, b]) => {
        if (a.kind === 'exit') readsExit(a);
        if (b.kind === 'exit') readsExit(b);
      });
      stalled.pipe(zipWith(lines)).subscribe(([a]) => a.kind === 'exit' && readsExit(a));
      of(stalled, stalled)
        .pipe(zipAll())
        .subscribe((slots) => {
          for (const event of slots) if (event.kind === 'exit') readsExit(event);
        });
    }));
});
