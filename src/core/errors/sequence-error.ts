import { isSluiceError, SluiceError } from './sluice-error.js';

/** Which rule of a sequenced stream was broken. */
export type SequenceRule =
  | 'start'
  | 'order'
  | 'gap'
  | 'duplicate'
  | 'after-final'
  | 'missing-final'
  | 'final-before-complete';

/** Details carried by a {@link SequenceError}. */
export interface SequenceErrorInfo {
  rule: SequenceRule;
  /** The sequence number that was expected next (undefined after the final event). */
  expected: number | undefined;
  /** The sequence number that arrived (undefined when the stream ended without a final event). */
  received: number | undefined;
}

/**
 * A sequenced stream broke one of its rules: it must start at 0, increase by exactly one, and
 * carry nothing after its final event. Code `STREAM_SEQUENCE`.
 *
 * @example
 * ```ts
 * import { SequenceError } from 'sluice';
 * const error = new SequenceError({ rule: 'gap', expected: 3, received: 5 });
 * error.message; // 'Sequence gap: expected 3, received 5 (3..4 are missing)'
 * ```
 */
export class SequenceError extends SluiceError<SequenceErrorInfo> {
  constructor(info: SequenceErrorInfo, message = describe(info)) {
    super('STREAM_SEQUENCE', message, { info });
  }

  override get name(): string {
    return 'SequenceError';
  }
}

function describe({ rule, expected, received }: SequenceErrorInfo): string {
  switch (rule) {
    case 'start':
      return `Sequence must start at ${expected ?? 0}, received ${received}`;
    case 'gap': {
      const last = (received ?? 0) - 1;
      const missing = last === expected ? `${expected} is missing` : `${expected}..${last} are missing`;
      return `Sequence gap: expected ${expected}, received ${received} (${missing})`;
    }
    case 'duplicate':
      return `Sequence duplicate: expected ${expected}, received ${received} again`;
    case 'order':
      return `Sequence out of order: expected ${expected}, received ${received}`;
    case 'after-final':
      return `Sequence ${received} arrived after the final event`;
    case 'missing-final':
      return `Stream completed without a final event (expected sequence ${expected})`;
    case 'final-before-complete':
      return `A final event arrived before its source completed (the source went on with sequence ${received}): one stream carries one run. To make several runs one stream (concatMap, mergeMap or concat of runs), add joinRuns() after them (docs/protocol.md, "Composed runs")`;
  }
}

/**
 * The sequence rules for one event, checked here by every place that checks a sequence:
 * `received` must be `expected` (`start` first) and nothing may follow the final event
 * (`finished`). The {@link SequenceError} to fail with, or `undefined`.
 */
export function sequenceViolation(
  expected: number,
  received: number,
  finished: boolean,
  start = 0,
): SequenceError | undefined {
  if (finished) return new SequenceError({ rule: 'after-final', expected: undefined, received });
  if (received === expected) return undefined;
  const rule =
    expected === start
      ? 'start'
      : received > expected
        ? 'gap'
        : received === expected - 1
          ? 'duplicate'
          : 'order';
  return new SequenceError({ rule, expected, received });
}

/** The error for a source that went on with `received` after its final event (it names `joinRuns()`). */
export function finalBeforeComplete(received: number): SequenceError {
  return new SequenceError({ rule: 'final-before-complete', expected: undefined, received });
}

/**
 * Whether `value` is a {@link SequenceError} (code `STREAM_SEQUENCE`).
 *
 * @example
 * ```ts
 * if (isSequenceError(error)) console.log(error.info?.rule);
 * ```
 */
export function isSequenceError(value: unknown): value is SequenceError {
  return isSluiceError(value, 'STREAM_SEQUENCE');
}
