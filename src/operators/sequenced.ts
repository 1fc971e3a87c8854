import type { OperatorFunction } from 'rxjs';
import type { ChunkEvent, ChunkInput, ChunkMetadata } from '../core/chunk.js';
import { finalBeforeComplete, type SequenceError } from '../core/errors/sequence-error.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';

/** The well-known metadata keys must have their types; other keys are free. */
function isMetadata(value: unknown): value is ChunkMetadata {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { partial, reason, dropped } = value as Record<string, unknown>;
  return (
    (partial === undefined || typeof partial === 'boolean') &&
    (reason === undefined || typeof reason === 'string') &&
    (dropped === undefined || (Number.isSafeInteger(dropped) && (dropped as number) >= 0))
  );
}
const METADATA = 'an object (`partial` a boolean, `reason` a string, `dropped` a non-negative integer)';

/** The error for an input that came after the final one: its own sequence if it has one (a run's), else the next. */
function wentOnAfterFinal(input: ChunkInput<unknown>, next: number): SequenceError {
  const own = (input as { sequence?: unknown }).sequence;
  const received = typeof own === 'number' ? own : next;
  return finalBeforeComplete(received);
}

/** Options of {@link sequenced}. */
export interface SequencedConfig {
  /** The `kind` of the null sentinel emitted when the source completes without a final event. Default `'end'`. */
  readonly finalKind?: string;
  /** Metadata of that sentinel. */
  readonly finalMetadata?: ChunkMetadata;
}

/**
 * Stamps contiguous sequence numbers (from 0) on chunk inputs and guarantees exactly one final
 * event, as the last one: an input with `isFinal: true` is emitted when the source completes; one
 * after it errors with a `SequenceError` (`final-before-complete`) naming {@link joinRuns}; a
 * source that completes without one gets a `{ kind: 'end', content: null }` sentinel. Errors pass
 * through; every other event is emitted as it arrives.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { sequenced } from 'sluice/operators';
 * of({ kind: 'stdout', content: 'a\n' }, { kind: 'stdout', content: 'b\n' })
 *   .pipe(sequenced())
 *   .subscribe(console.log);
 * // { sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false }
 * // { sequence: 1, kind: 'stdout', content: 'b\n', isFinal: false }
 * // { sequence: 2, kind: 'end', content: null, isFinal: true }
 * ```
 */
export function sequenced<T>(config: SequencedConfig = {}): OperatorFunction<ChunkInput<T>, ChunkEvent<T>> {
  rejectUnknownOptions(config, ['finalKind', 'finalMetadata']);
  const finalKind = readOption<string>(
    config,
    'finalKind',
    (value) => typeof value === 'string',
    'a string',
    'end',
  );
  const finalMetadata: ChunkMetadata | undefined = readOption(
    config,
    'finalMetadata',
    isMetadata,
    METADATA,
    undefined,
  );
  return operate((source, subscriber) => {
    let next = 0;
    /** The final event, waiting for the source to complete. */
    let held: ChunkEvent<T> | undefined;
    const stamp = (input: ChunkInput<T>, isFinal: boolean): ChunkEvent<T> => {
      const event: ChunkEvent<T> =
        input.metadata === undefined
          ? { sequence: next, kind: input.kind, content: input.content, isFinal }
          : { sequence: next, kind: input.kind, content: input.content, metadata: input.metadata, isFinal };
      next += 1;
      return event;
    };
    source.subscribe(
      createOperatorSubscriber<ChunkInput<T>>(
        subscriber,
        (input) => {
          if (held !== undefined) {
            subscriber.error(wentOnAfterFinal(input, next));
            return;
          }
          const isFinal = input.isFinal === true;
          const event = stamp(input, isFinal);
          if (isFinal) held = event;
          else subscriber.next(event);
        },
        () => {
          if (held !== undefined) {
            subscriber.next(held);
            subscriber.complete();
            return;
          }
          const sentinel: ChunkInput<T> =
            finalMetadata === undefined
              ? { kind: finalKind, content: null }
              : { kind: finalKind, content: null, metadata: finalMetadata };
          subscriber.next(stamp(sentinel, true));
          subscriber.complete();
        },
      ),
    );
  });
}
