import { concatMap, from, mergeMap, type Observable, of, type Subscription } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ChunkEvent,
  type ExecEvent,
  type ExecExitEvent,
  type ExecLineEvent,
  type ExecResult,
  exec,
  type JoinEndEvent,
  type JoinedEvent,
  joinRuns,
  MemoryRunStore,
  type RunEndEvent,
  sequenced,
  toRunStore,
} from '../../src/index.js';

// Type tests: `tsc -p tsconfig.json` checks them (test/ is part of the project); at run time
// `expectTypeOf` does nothing, so each `it` only says what its assertions pin down.

const commands: [string, string[]][] = [
  ['echo', ['one']],
  ['echo', ['two']],
];

describe('joinRuns() types', () => {
  it('turns a queue of exec runs into lines, run ends and one final end event', () => {
    const joined = from(commands).pipe(
      concatMap(([file, args]) => exec(file, args)),
      joinRuns(),
    );
    expectTypeOf(joined).toEqualTypeOf<
      Observable<ExecLineEvent | RunEndEvent<ExecExitEvent> | JoinEndEvent>
    >();
    expectTypeOf<JoinedEvent<ExecEvent>>().toEqualTypeOf<
      ExecLineEvent | RunEndEvent<ExecExitEvent> | JoinEndEvent
    >();
  });

  it("keeps a run end's kind and content and marks it non-final with the run's number", () => {
    type Ended = RunEndEvent<ExecExitEvent>;
    expectTypeOf<Ended['content']>().toEqualTypeOf<ExecResult>();
    expectTypeOf<Ended['isFinal']>().toEqualTypeOf<false>();
    expectTypeOf<Ended['metadata']['run']>().toEqualTypeOf<number>();
    expectTypeOf<Ended['sequence']>().toEqualTypeOf<number>();
  });

  it('narrows to the final end event on isFinal', () => {
    from(commands)
      .pipe(
        mergeMap(([file, args]) => exec(file, args), 2),
        joinRuns(),
      )
      .subscribe((event) => {
        if (event.isFinal) {
          expectTypeOf(event).toEqualTypeOf<JoinEndEvent>();
          expectTypeOf(event.metadata.runs).toEqualTypeOf<number>();
          expectTypeOf(event.content).toEqualTypeOf<null>();
        } else if (event.kind === 'exit') {
          expectTypeOf(event.content).toEqualTypeOf<ExecResult>();
        }
      });
  });

  it('keeps a generic chunk event (isFinal: boolean) and adds its run-end form', () => {
    expectTypeOf<JoinedEvent<ChunkEvent<string>>>().toEqualTypeOf<
      ChunkEvent<string> | RunEndEvent<ChunkEvent<string>> | JoinEndEvent
    >();
  });

  it('composes with the one-run operators and sinks that come after it', () => {
    const store = new MemoryRunStore();
    const published = from(commands).pipe(
      concatMap(([file, args]) => exec(file, args)),
      joinRuns(),
      toRunStore(store, 'queue-1'),
    );
    expectTypeOf(published).toEqualTypeOf<
      Observable<ExecLineEvent | RunEndEvent<ExecExitEvent> | JoinEndEvent>
    >();
    const restamped = of<ChunkEvent<string>>().pipe(joinRuns(), sequenced());
    expectTypeOf(restamped).toEqualTypeOf<Observable<ChunkEvent<string>>>();
  });

  it('takes no arguments and only chunk events', () => {
    // @ts-expect-error joinRuns() has no options
    joinRuns({ finalKind: 'done' });
    // @ts-expect-error numbers are not chunk events
    of(1, 2).pipe(joinRuns());
  });

  it("compiles the README's queue example as written (test/package/check-consumer.mjs runs it)", () => {
    const readmeExample = (cwd: string) => {
      const store = new MemoryRunStore();
      const commands: [string, string[]][] = [
        ['sh', ['-c', 'echo built > app.txt']],
        ['sh', ['-c', 'grep -q built app.txt']],
        ['sh', ['-c', 'exit 3']],
      ];
      return from(commands)
        .pipe(
          concatMap(([file, args]) => exec(file, args, { cwd, reject: false })),
          joinRuns(),
          toRunStore(store, 'ci-42'),
        )
        .subscribe((event) => {
          if (event.kind === 'exit')
            console.log(`command ${event.metadata.run} exited ${event.content.exitCode}`);
          if (event.isFinal) console.log(`all ${event.metadata.runs} done`);
        });
    };
    expectTypeOf(readmeExample).returns.toEqualTypeOf<Subscription>();
  });
});
