import { describe, expect, it } from 'vitest';
import { isCancelledError } from '../../../src/core/errors/cancelled-error.js';
import { isSluiceError } from '../../../src/core/errors/sluice-error.js';
import { isExecError } from '../../../src/sources/exec/exec-error.js';
import { cancelledError, execFailure } from '../../../src/sources/exec/exec-failure.js';
import type { ExecResult } from '../../../src/sources/exec/exec-result.js';
import { execResult } from '../../support/exec-result.js';

const result = (overrides: Partial<ExecResult> = {}): ExecResult =>
  execResult('make all', { pid: 42, durationMs: 5, ...overrides });

const options = { rlimits: undefined, reject: true, timeoutMs: 0 };

describe('execFailure', () => {
  it('a run that exited 0 ends with its exit event', () => {
    expect(execFailure(options, { exitCode: 0, signal: null }, result(), undefined)).toBeUndefined();
  });

  it('a non-zero exit fails with ExecError only with reject', () => {
    const failed = result({ exitCode: 2 });
    const error = execFailure(options, { exitCode: 2, signal: null }, failed, undefined);
    expect(isExecError(error)).toBe(true);
    expect(
      execFailure({ ...options, reject: false }, { exitCode: 2, signal: null }, failed, undefined),
    ).toBeUndefined();
  });

  it('a timeout fails with reject even when the exit code is 0', () => {
    const timedOut = result({ timedOut: true, signal: 'SIGTERM', exitCode: null });
    expect(
      isExecError(
        execFailure(
          { ...options, timeoutMs: 10 },
          { exitCode: null, signal: 'SIGTERM' },
          timedOut,
          undefined,
        ),
      ),
    ).toBe(true);
  });

  it('a cancelled run fails with CancelledError carrying the result, whatever the exit', () => {
    const reason = new Error('user left');
    const error = execFailure({ ...options, reject: false }, { exitCode: 0, signal: null }, result(), {
      reason,
    });
    expect(isCancelledError(error)).toBe(true);
    expect(error?.message).toBe('Command was cancelled (user left): make all');
    expect((error as { info?: { result?: ExecResult } }).info?.result?.pid).toBe(42);
  });

  it('prlimit refusing a limit fails with RLIMIT_UNAVAILABLE before any exit-code rule', () => {
    const refusal = 'prlimit: failed to set the NOFILE resource limit: Operation not permitted\n';
    const error = execFailure(
      { ...options, reject: false, rlimits: { openFiles: 2 ** 30 } },
      { exitCode: 1, signal: null },
      result({ exitCode: 1, stderr: refusal }),
      undefined,
    );
    expect(isSluiceError(error) && error.code).toBe('RLIMIT_UNAVAILABLE');
  });
});

describe('cancelledError', () => {
  it("names an AbortError's cancel plainly and another reason in parentheses", () => {
    expect(cancelledError(new DOMException('aborted', 'AbortError'), undefined, 'sleep').message).toBe(
      'Command was cancelled: sleep',
    );
    expect(cancelledError(new Error('shutdown'), undefined, 'sleep').message).toBe(
      'Command was cancelled (shutdown): sleep',
    );
  });
});
