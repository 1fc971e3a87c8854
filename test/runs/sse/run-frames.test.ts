import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeChunkFrame, encodeChunkEvent } from '../../../src/runs/sse/run-frames.js';

describe('decodeChunkFrame', () => {
  it('gives back every event encodeChunkEvent framed, whatever its text (property)', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.constantFrom('stdout', 'stderr', 'exit', 'end'),
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'grapheme' }),
          fc.constant('a\r\nb\u2028c\n'),
          fc.constant(null),
        ),
        fc.option(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean())), {
          nil: undefined,
        }),
        fc.boolean(),
        (sequence, kind, content, metadata, isFinal) => {
          const event =
            metadata === undefined
              ? { sequence, kind, content, isFinal }
              : { sequence, kind, content, metadata, isFinal };
          expect(decodeChunkFrame(encodeChunkEvent(event))).toEqual(event);
        },
      ),
    );
  });
});
