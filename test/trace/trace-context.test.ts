import { describe, expect, it } from 'vitest';
import { formatTraceparent, parseTraceparent } from '../../src/trace/trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('parseTraceparent / formatTraceparent (W3C Trace Context)', () => {
  it('reads version 00 and writes it back', () => {
    const value = `00-${TRACE}-${SPAN}-01`;
    const parsed = parseTraceparent(value);
    expect(parsed).toEqual({ traceId: TRACE, spanId: SPAN, traceFlags: 1 });
    expect(formatTraceparent(parsed as NonNullable<typeof parsed>)).toBe(value);
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.traceFlags).toBe(0);
  });

  it.each([
    ['upper-case digits', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['version 00 with more fields', `00-${TRACE}-${SPAN}-01-extra`],
    ['a wrong separator', `00_${TRACE}-${SPAN}-01`],
    ['non-hex flags', `00-${TRACE}-${SPAN}-0g`],
    ['not a string', 42],
    ['empty', ''],
  ])('refuses %s', (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('reads a later version by its first four fields', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-more`)).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      traceFlags: 1,
    });
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01x`)).toBeUndefined();
  });
});
