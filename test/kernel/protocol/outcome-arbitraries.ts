import fc from 'fast-check';
import {
  failure,
  type HostcallOutcome,
  streamChunk,
  success,
} from '../../../src/kernel/protocol/hostcall-outcome.js';
import type { JsonValue } from '../../../src/kernel/protocol/json-value.js';

/** JSON values as they come back from JSON text (`-0` becomes `0`), including any code point in strings. */
export const jsonArbitrary: fc.Arbitrary<JsonValue> = fc
  .jsonValue({ maxDepth: 4, stringUnit: 'binary' })
  .map((value) => JSON.parse(JSON.stringify(value)) as JsonValue);

/** Sequence numbers across the whole accepted range, with the edges made likely. */
export const sequenceArbitrary: fc.Arbitrary<number> = fc.oneof(
  fc.nat({ max: 1000 }),
  fc.maxSafeNat(),
  fc.constantFrom(0, 1, 2 ** 32, 2 ** 53 - 2, Number.MAX_SAFE_INTEGER),
);

/** Every variant of {@link HostcallOutcome}. */
export const outcomeArbitrary: fc.Arbitrary<HostcallOutcome> = fc.oneof(
  jsonArbitrary.map((value) => success(value)),
  fc
    .tuple(fc.string({ minLength: 1, unit: 'binary' }), fc.string({ unit: 'binary' }))
    .map(([code, message]) => failure(code, message)),
  fc
    .tuple(sequenceArbitrary, jsonArbitrary, fc.boolean())
    .map(([sequence, chunk, isFinal]) => streamChunk(sequence, chunk, isFinal)),
);

/** Call ids as a host might make them, including non-ASCII ones. */
export const callIdArbitrary: fc.Arbitrary<string> = fc.string({
  minLength: 1,
  maxLength: 24,
  unit: 'binary',
});
