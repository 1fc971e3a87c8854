import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { demandOf } from '../core/subscriber-chain.js';
import type { JsonValue } from '../kernel/protocol/json-value.js';

/** One step of a {@link scriptedProducer}, at an absolute time `at` of the clock. */
export type ScriptedStep =
  | { readonly at: number; readonly chunk: JsonValue; readonly final?: boolean }
  | { readonly at: number; readonly complete: true }
  | { readonly at: number; readonly error: { readonly code: string; readonly message: string } };

/** What a scripted producer went through, and when, for assertions. */
export type ScriptedTrace = (
  event: 'subscribe' | 'pause' | 'resume' | 'emit' | 'unsubscribe',
  time: number,
) => void;

/**
 * A producer that plays a script on a clock with the manners of a real one: like a child blocked
 * on a full pipe, it holds chunks while its consumer's demand is paused (not `complete`/`error`
 * steps: a process that finished writing exits anyway); `trace` reports what happened and when.
 *
 * @example
 * ```ts
 * const producer$ = scriptedProducer([{ at: 10, chunk: 'line 1\n' }, { at: 20, chunk: 'done\n', final: true }], clock);
 * const host = createHost({ scheduler, producers: { exec: () => producer$ } });
 * ```
 */
export function scriptedProducer(
  steps: readonly ScriptedStep[],
  clock: SchedulerLike,
  trace: ScriptedTrace = () => {},
): Observable<ChunkEvent<JsonValue>> {
  return new Observable<ChunkEvent<JsonValue>>((subscriber) => {
    const demand = demandOf(subscriber);
    let index = 0;
    let sequence = 0;
    let timer: Subscription | undefined;
    let ended = false;
    trace('subscribe', clock.now());
    const play = (): void => {
      while (index < steps.length && !subscriber.closed) {
        const step = steps[index] as ScriptedStep;
        const wait = step.at - clock.now();
        if (wait > 0) {
          if (timer === undefined) {
            timer = clock.schedule(() => {
              timer = undefined;
              play();
            }, wait);
          }
          return;
        }
        if ('chunk' in step && demand?.paused === true) return;
        index += 1;
        if ('chunk' in step) {
          const isFinal = step.final === true;
          trace('emit', clock.now());
          if (isFinal) ended = true;
          subscriber.next({ sequence, kind: 'chunk', content: step.chunk, isFinal });
          sequence += 1;
          if (isFinal) subscriber.complete();
        } else if ('complete' in step) {
          ended = true;
          subscriber.complete();
        } else {
          ended = true;
          subscriber.error(Object.assign(new Error(step.error.message), { code: step.error.code }));
        }
      }
    };
    const stopListening = demand?.onChange((paused) => {
      trace(paused ? 'pause' : 'resume', clock.now());
      if (!paused) play();
    });
    play();
    return () => {
      timer?.unsubscribe();
      stopListening?.();
      if (!ended) trace('unsubscribe', clock.now());
    };
  });
}
