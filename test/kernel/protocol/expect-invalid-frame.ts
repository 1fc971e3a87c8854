import { expect } from 'vitest';
import { isInvalidFrameError } from '../../../src/core/index.js';

/** Runs `decode` and asserts it throws an `InvalidFrameError` with exactly `message` (and `field`, when given). */
export function expectInvalidFrame(decode: () => unknown, message: string, field?: string): void {
  let thrown: unknown;
  try {
    decode();
  } catch (error) {
    thrown = error;
  }
  expect(isInvalidFrameError(thrown), `expected an InvalidFrameError, got ${String(thrown)}`).toBe(true);
  expect((thrown as Error).message).toBe(message);
  expect((thrown as { code: string }).code).toBe('INVALID_FRAME');
  if (field !== undefined) expect((thrown as { info: { field: string } }).info.field).toBe(field);
}
