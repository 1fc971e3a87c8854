import {
  catchError,
  concat,
  concatAll,
  concatMap,
  concatWith,
  defer,
  endWith,
  exhaustMap,
  map,
  merge,
  mergeAll,
  mergeMap,
  type Observable,
  race,
  repeat,
  retry,
  startWith,
  switchAll,
  switchMap,
  takeUntil,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ExecError } from '../../src/sources/exec/exec-error.js';
import { type ExecEvent, exec } from '../../src/sources/exec.js';
import {
  type ChunkRunHelpers,
  type FakeExec,
  type FakeProcessScript,
  withDemand,
} from '../../src/testing/index.js';
import { execResult } from '../support/exec-result.js';
import { newTestScheduler } from '../support/test-scheduler.js';

// The pause of a slow consumer reaches a fake process through each of RxJS's compositions, in
// virtual time: the consumer's demand (a `demand(...)` marble) is carried by `withDemand` on the
// subscriber chain, and each process records when `exec` paused and resumed reading its pipes.
// The process blocks on the first write it makes while paused; its script goes on after the
// resume (see src/testing/fake-exec.ts). A line is shown as its letter, an exit as the
// command's name (`X`, `Y`). test/core/demand-compositions.test.ts checks the same compositions
// with real flooding children.

/** An exec event as a marble letter: a line's content without its newline, an exit as its command. */
const letter = (event: ExecEvent): string =>
  event.kind === 'exit' ? event.content.command : event.content.trimEnd();

/** `exec(command)` on `fake`, its events as letters. */
const run = (command: string, fake: FakeExec): Observable<string> =>
  exec(command, [], { port: fake }).pipe(map(letter));

/** The pauses and resumes each fake recorded, by pid. */
const demandLog = (...fakes: FakeExec[]) =>
  fakes.flatMap((fake) =>
    fake.records
      .filter((record) => record.type === 'pause' || record.type === 'resume')
      .map((record) => `${record.pid} ${record.type}@${record.at}`),
  );

/** A line at 1, 3, 5, 7 after its spawn, then exit 0 at 8. */
const FOUR_LINES: FakeProcessScript = { stdout: '-a-b-c-d|' };

interface Composition {
  /** The composition under the consumer, with the fakes it spawns. */
  readonly build: (helpers: ChunkRunHelpers, fakes: readonly FakeExec[]) => Observable<string>;
  /** Each fake's script (and first pid); the first is `X`, the second `Y`. */
  readonly scripts: readonly (FakeProcessScript & { readonly pid?: number })[];
  /** The consumer's demand. */
  readonly consumer: string;
  /** What the consumer sees. */
  readonly expected: string;
  /** The error it ends with, if `#`. */
  readonly error?: unknown;
  /** Every pause and resume of the fakes' pipes, as `pid pause@frame`. */
  readonly demand: readonly string[];
}

// The triggered cases spawn at 2 (a 3, b 5, c 7…); the consumer pauses at 6, so c blocks the
// process until the resume at 10, and everything after it moves 3 frames.
const triggered = (compose: (helpers: ChunkRunHelpers, x: Observable<string>) => Observable<string>) => ({
  build: (helpers: ChunkRunHelpers, [x]: readonly FakeExec[]) => compose(helpers, run('X', x as FakeExec)),
  scripts: [FOUR_LINES],
  consumer: '------p---r',
  expected: '---a-b----c-d(X|)',
  demand: ['4242 pause@6', '4242 resume@10'],
});

// The direct cases spawn at 0 (a 1, b 3, c 5…): paused at 4, c waits until the resume at 8.
const direct = (compose: (helpers: ChunkRunHelpers, x: Observable<string>) => Observable<string>) => ({
  build: (helpers: ChunkRunHelpers, [x]: readonly FakeExec[]) => compose(helpers, run('X', x as FakeExec)),
  scripts: [FOUR_LINES],
  consumer: '----p---r',
  expected: '-a-b----c-d(X|)',
  demand: ['4242 pause@4', '4242 resume@8'],
});

const compositions: Record<string, Composition> = {
  'concat (build, then test)': {
    build: (_helpers, [x, y]) => concat(run('Y', y as FakeExec), run('X', x as FakeExec)),
    scripts: [FOUR_LINES, { stdout: '-o|', pid: 100 }],
    consumer: '------p---r',
    expected: '-oYa-b----c-d(X|)',
    demand: ['4242 pause@6', '4242 resume@10'],
  },
  concatWith: {
    build: (_helpers, [x, y]) => run('Y', y as FakeExec).pipe(concatWith(run('X', x as FakeExec))),
    scripts: [FOUR_LINES, { stdout: '-o|', pid: 100 }],
    consumer: '------p---r',
    expected: '-oYa-b----c-d(X|)',
    demand: ['4242 pause@6', '4242 resume@10'],
  },
  concatMap: triggered(({ cold }, x) => cold('--t|').pipe(concatMap(() => x))),
  'mergeMap (one inner)': triggered(({ cold }, x) => cold('--t|').pipe(mergeMap(() => x))),
  exhaustMap: triggered(({ cold }, x) => cold('--t|').pipe(exhaustMap(() => x))),
  concatAll: triggered(({ cold }, x) =>
    cold('--t|').pipe(
      map(() => x),
      concatAll(),
    ),
  ),
  mergeAll: triggered(({ cold }, x) =>
    cold('--t|').pipe(
      map(() => x),
      mergeAll(),
    ),
  ),
  switchAll: triggered(({ cold }, x) =>
    cold('--t|').pipe(
      map(() => x),
      switchAll(),
    ),
  ),
  'switchMap (restart on change)': {
    // The consumer pauses at 5, before the first run's b (a consumer's change of a frame comes
    // first): b stays in the pipe. The restart at 7 kills that run and spawns the second while
    // the consumer is still paused: it is paused from its spawn, and resumed at 10.
    build: ({ cold }, [x]) => cold('--t----t|').pipe(switchMap(() => run('X', x as FakeExec))),
    scripts: [FOUR_LINES],
    consumer: '-----p----r',
    expected: '---a------a-b-c-d(X|)',
    demand: ['4242 pause@5', '4243 pause@7', '4243 resume@10'],
  },
  'mergeMap (two at once)': {
    // X spawns at 1 (a 2, b 6, c 10, d 14), Y at 3 (e 5, f 11, g 17): paused at 7, c and f
    // wait until 12, when X's listener (subscribed first) is told first.
    build: ({ cold }, [x, y]) =>
      cold('-t-t|').pipe(
        mergeMap((_, index) => (index === 0 ? run('X', x as FakeExec) : run('Y', y as FakeExec)), 2),
      ),
    scripts: [{ stdout: '-a---b---c---d|' }, { stdout: '--e-----f-----g|', pid: 100 }],
    consumer: '-------p----r',
    expected: '--a--eb-----(cf)dXg(Y|)',
    demand: ['4242 pause@7', '4242 resume@12', '100 pause@7', '100 resume@12'],
  },
  'merge (two at once)': {
    build: (_helpers, [x, y]) => merge(run('X', x as FakeExec), run('Y', y as FakeExec)),
    scripts: [{ stdout: '-a---b---c---d|' }, { stdout: '--e-----f-----g|', pid: 100 }],
    consumer: '------p----r',
    expected: '-ae--b-----(cf)dXg(Y|)',
    demand: ['4242 pause@6', '4242 resume@11', '100 pause@6', '100 resume@11'],
  },
  defer: direct((_helpers, x) => defer(() => x)),
  startWith: {
    ...direct((_helpers, x) => x.pipe(startWith('s'))),
    expected: 'sa-b----c-d(X|)',
  },
  endWith: {
    ...direct((_helpers, x) => x.pipe(endWith('e'))),
    expected: '-a-b----c-d(Xe|)',
  },
  takeUntil: direct(({ cold }, x) => x.pipe(takeUntil(cold('--------------n')))),
  race: direct(({ cold }, x) => race(cold('-----------z'), x)),
  'retry (a flaky tool)': {
    // The first run fails at 8; retry spawns the second at 8 (a 9, b 11, c 13…), paused at 12.
    build: (_helpers, [x]) => run('X', x as FakeExec).pipe(retry(1)),
    scripts: [{ stdout: '-a-b-c-d|', exit: { code: 1 } }],
    consumer: '------------p---r',
    expected: '-a-b-c-d-a-b----c-d#',
    error: new ExecError(execResult('X', { pid: 4243, exitCode: 1, durationMs: 11, stdout: 'a\nb\nc\nd\n' })),
    demand: ['4243 pause@12', '4243 resume@16'],
  },
  repeat: {
    build: (_helpers, [x]) => run('X', x as FakeExec).pipe(repeat(2)),
    scripts: [FOUR_LINES],
    consumer: '------------p---r',
    expected: '-a-b-c-dXa-b----c-d(X|)',
    demand: ['4243 pause@12', '4243 resume@16'],
  },
  catchError: {
    // Y fails at 2; its replacement X spawns then (a 3, b 5, c 7…), paused at 6.
    build: (_helpers, [x, y]) => run('Y', y as FakeExec).pipe(catchError(() => run('X', x as FakeExec))),
    scripts: [FOUR_LINES, { stdout: '-f|', exit: { code: 1 }, pid: 100 }],
    consumer: '------p---r',
    expected: '-f-a-b----c-d(X|)',
    demand: ['4242 pause@6', '4242 resume@10'],
  },
};

describe('demand reaches a fake process through each composition, in virtual time', () => {
  for (const [name, composition] of Object.entries(compositions)) {
    it(`through ${name}`, () => {
      newTestScheduler().run((helpers) => {
        const { demand, expectObservable, fakeExec, flush } = helpers;
        const fakes = composition.scripts.map(({ pid, ...script }) => fakeExec(script, { pid }));
        const consumer = demand(composition.consumer);
        const output = withDemand(consumer, composition.build(helpers, fakes));
        expectObservable(output).toBe(composition.expected, undefined, composition.error);
        flush();
        expect(demandLog(...fakes)).toEqual(composition.demand);
        expect(fakes.map((fake) => fake.running)).toEqual(fakes.map(() => 0));
      });
    });
  }
});
