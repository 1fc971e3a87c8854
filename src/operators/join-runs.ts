import type { OperatorFunction } from 'rxjs';
import type { ChunkEvent, ChunkMetadata } from '../core/chunk.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';

/**
 * The event a run ended with, inside a joined stream: the same `kind` and `content` (an `exec`
 * run's `exit` event still carries its `ExecResult`), renumbered, no longer final, and with
 * `metadata.run`, the run's number (0 for the first run to end).
 */
export type RunEndEvent<E extends ChunkEvent<unknown>> = Omit<E, 'sequence' | 'metadata' | 'isFinal'> & {
  readonly sequence: number;
  readonly metadata: NonNullable<E['metadata']> & { readonly run: number };
  readonly isFinal: false;
};

/**
 * The one final event of a joined stream, emitted when its source completes:
 * `{ kind: 'end', content: null, metadata: { runs }, isFinal: true }`, `runs` being how many runs
 * ended in it.
 */
export interface JoinEndEvent extends ChunkEvent<null> {
  readonly kind: 'end';
  readonly content: null;
  readonly metadata: ChunkMetadata & { readonly runs: number };
  readonly isFinal: true;
}

/**
 * What {@link joinRuns} emits for input events `E`: a final input becomes a {@link RunEndEvent},
 * a non-final one stays as it is (renumbered), and the stream ends with a {@link JoinEndEvent}.
 */
export type JoinedEvent<E extends ChunkEvent<unknown>> =
  | (E extends { readonly isFinal: true }
      ? RunEndEvent<E>
      : E extends { readonly isFinal: false }
        ? E
        : E | RunEndEvent<E>)
  | JoinEndEvent;

/**
 * Makes several runs flattened into one Observable (`concatMap`, `mergeMap`, `concat` of sequenced
 * sources) **one** sequenced stream (docs/protocol.md, "Composed runs"): every event renumbered
 * from 0; each run's final event kept as a non-final {@link RunEndEvent} (`metadata.run`, in the
 * order runs end); one final {@link JoinEndEvent} when the source completes, even with no run.
 *
 * Without it, what expects one run per stream fails with a `SequenceError`
 * (`final-before-complete`) at the second run. Errors pass through (give `exec` `reject: false`
 * to go on past a failing command). With `mergeMap`, runs interleave and are numbered as they
 * end. Nothing is buffered; demand passes through to each run.
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { concatMap } from 'rxjs/operators';
 * import { exec, toRunStore } from 'sluice';
 * import { joinRuns } from 'sluice/operators';
 * const commands: [string, string[]][] = [['npm', ['ci']], ['npm', ['test']], ['npm', ['run', 'build']]];
 * from(commands)
 *   .pipe(
 *     concatMap(([file, args]) => exec(file, args, { reject: false })),
 *     joinRuns(), // 0:stdout … 5:exit(run 0) 6:stdout … 17:exit(run 2) 18:end!
 *     toRunStore(store, 'ci-42'),
 *   )
 *   .subscribe();
 * ```
 */
export function joinRuns<E extends ChunkEvent<unknown>>(): OperatorFunction<E, JoinedEvent<E>> {
  return operate<E, JoinedEvent<E>>((source, subscriber) => {
    let next = 0;
    let runs = 0;
    source.subscribe(
      createOperatorSubscriber<E>(
        subscriber,
        (event) => {
          const sequence = next;
          next += 1;
          if (!event.isFinal) {
            subscriber.next((event.sequence === sequence ? event : { ...event, sequence }) as JoinedEvent<E>);
            return;
          }
          const metadata = { ...event.metadata, run: runs };
          runs += 1;
          subscriber.next({ ...event, sequence, metadata, isFinal: false } as unknown as JoinedEvent<E>);
        },
        () => {
          const end: JoinEndEvent = {
            sequence: next,
            kind: 'end',
            content: null,
            metadata: { runs },
            isFinal: true,
          };
          subscriber.next(end);
          subscriber.complete();
        },
      ),
    );
  });
}
