import type { ExecResult } from '../../src/sources/exec/exec-result.js';

/** An exec's result as a clean exit of `command` (pid 4242, no output) would give it, with `overrides`. */
export function execResult(command: string, overrides: Partial<ExecResult> = {}): ExecResult {
  return {
    command,
    pid: 4242,
    exitCode: 0,
    signal: null,
    timedOut: false,
    truncated: false,
    durationMs: 0,
    stdout: '',
    stderr: '',
    rlimitHit: null,
    containment: 'group',
    usage: null,
    limitHit: null,
    ...overrides,
  };
}
