import { TestScheduler } from 'rxjs/testing';
import { optionError } from '../core/option-error.js';

/** One entry of a parsed marble diagram: a value, the end `|`, or an error `#`, at a frame (= ms). */
export type TimelineEntry<T> =
  | { readonly frame: number; readonly kind: 'N'; readonly value: T }
  | { readonly frame: number; readonly kind: 'C' }
  | { readonly frame: number; readonly kind: 'E' };

/**
 * Parses a marble diagram the way `TestScheduler.run` does (1 frame = 1 ms, spaces ignored, time
 * progressions such as `10ms `), whether or not a `run` is active, with RxJS's own parser.
 * Throws a `TypeError` naming `field` for a diagram RxJS rejects. Internal to `src/testing`.
 */
export function parseTimeline<T>(
  marbles: string,
  values: Readonly<Record<string, T>> | undefined,
  field: string,
): TimelineEntry<T>[] {
  if (typeof marbles !== 'string') throw optionError(field, 'a marble diagram (string)', marbles);
  const factor = TestScheduler.frameTimeFactor;
  TestScheduler.frameTimeFactor = 1;
  try {
    return TestScheduler.parseMarbles(marbles, values, undefined, false, true).map(
      ({ frame, notification }) =>
        notification.kind === 'N'
          ? { frame, kind: 'N', value: notification.value as T }
          : { frame, kind: notification.kind },
    );
  } catch (error) {
    throw optionError(field, `a marble diagram RxJS can parse (${(error as Error).message})`, marbles);
  } finally {
    TestScheduler.frameTimeFactor = factor;
  }
}
