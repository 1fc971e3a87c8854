import { optionError } from '../core/option-error.js';
import type { ExecResult } from '../sources/exec/exec-result.js';

const BRAND = Symbol.for('sluice.exitEventExpectation');
const FIELDS = [
  'exitCode',
  'signal',
  'timedOut',
  'truncated',
  'stdout',
  'stderr',
  'command',
  'rlimitHit',
] as const;

/** The fields of an `ExecResult` that {@link exitEvent} can expect; those left out are not compared. */
export type ExitEventFields = Partial<Pick<ExecResult, (typeof FIELDS)[number]>> & {
  /** The event's sequence number, when it matters. */
  readonly sequence?: number;
};

/**
 * What {@link exitEvent} returns: compared by {@link chunkMatcher} under any assertion, and, being
 * an asymmetric matcher, by vitest's and jest's `toEqual` as well.
 */
export interface ExitEventExpectation {
  /** Whether `actual` is a final `exit` event whose result has the expected fields. */
  asymmetricMatch(actual: unknown): boolean;
  /** How it prints in a failure: `exitEvent({"exitCode":0})`. */
  toAsymmetricMatcher(): string;
  /** The fields it compares. */
  readonly fields: ExitEventFields;
}

/**
 * Matches an exec's final `exit` event (`{ kind: 'exit', content: ExecResult, isFinal: true }`) by
 * what the test is about — its exit code, its signal, whether it timed out — without spelling out
 * the whole result (`durationMs`, `pid`, …); fields left out are not compared. An expected value for
 * a `TestScheduler` built with {@link chunkMatcher} (as `ChunkTestScheduler`), or for `toEqual`.
 *
 * @example
 * ```ts
 * import { ChunkTestScheduler, exitEvent } from 'sluice/testing';
 * new ChunkTestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(({ fakeExec, expectObservable }) => {
 *   const make = fakeExec({ stdout: '-a|', exit: { code: 2 } });
 *   expectObservable(exec('make', [], { port: make, reject: false })).toBe('-a(x|)', {
 *     a: { sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false },
 *     x: exitEvent({ exitCode: 2, signal: null }),
 *   });
 * });
 * ```
 */
export function exitEvent(fields: ExitEventFields = {}): ExitEventExpectation {
  if (typeof fields !== 'object' || fields === null)
    throw optionError('fields', 'an object', fields, 'argument');
  const known: readonly string[] = ['sequence', ...FIELDS];
  const unknown = Object.keys(fields).find((key) => !known.includes(key));
  if (unknown !== undefined) {
    throw optionError(unknown, `one of ${known.map((name) => `\`${name}\``).join(', ')}`, unknown);
  }
  const expected = { ...fields };
  return Object.defineProperties(
    {
      fields: expected,
      asymmetricMatch: (actual: unknown) => isExitEventMatch(actual, expected),
      toAsymmetricMatcher: () => `exitEvent(${JSON.stringify(expected)})`,
    },
    {
      $$typeof: { value: Symbol.for('jest.asymmetricMatcher') },
      [BRAND]: { value: true },
    },
  );
}

/** Whether `value` is an {@link ExitEventExpectation} (from any copy of sluice). */
export function isExitEventExpectation(value: unknown): value is ExitEventExpectation {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

function isExitEventMatch(actual: unknown, fields: ExitEventFields): boolean {
  if (typeof actual !== 'object' || actual === null) return false;
  const event = actual as { sequence?: unknown; kind?: unknown; content?: unknown; isFinal?: unknown };
  if (event.kind !== 'exit' || event.isFinal !== true) return false;
  if (fields.sequence !== undefined && event.sequence !== fields.sequence) return false;
  if (typeof event.content !== 'object' || event.content === null) return false;
  const content = event.content as Record<string, unknown>;
  return FIELDS.every((name) => fields[name] === undefined || Object.is(content[name], fields[name]));
}
