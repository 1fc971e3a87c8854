import { Observable } from 'rxjs';
import type { ExecEvent } from '../../src/sources/exec.js';

/** An exec event as a marble letter: a line's content without its newline, `x` for the exit. */
export const letter = (event: ExecEvent): string => (event.kind === 'exit' ? 'x' : event.content.trimEnd());

/**
 * The source of RxJS's "stops listening to a synchronous source when unsubscribed" specs: emits
 * `map(0)`, `map(1)`, … up to ten values synchronously while its subscriber is open, recording
 * each index in `sideEffects`.
 */
export function synchronousSource<T = number>(
  sideEffects: number[],
  map: (index: number) => T = (index) => index as T,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    for (let index = 0; !subscriber.closed && index < 10; index += 1) {
      sideEffects.push(index);
      subscriber.next(map(index));
    }
  });
}
