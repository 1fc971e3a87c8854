import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { failureExitCode, mirrorExitCode } from '../../src/cli/exit-code.js';
import { SluiceError } from '../../src/core/errors/sluice-error.js';
import { runFailureError, toRunFailure } from '../../src/runs/run-failure.js';
import { exec } from '../../src/sources/exec.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { startCli } from '../support/sluice-cli.js';

/** The error `exec` of `file` ends with, as sluice exec sees it and as a follower reads it back. */
async function spawnFailure(file: string, cwd?: string): Promise<{ direct: unknown; stored: unknown }> {
  const direct = await lastValueFrom(exec(file, [], { ...(cwd === undefined ? {} : { cwd }) })).catch(
    (error: unknown) => error,
  );
  return { direct, stored: runFailureError(toRunFailure(direct), 'run-1') };
}

describe('one exit-code rule for exec and follow', () => {
  it('a command not found: 127, whether the error is the spawn error or the failure a store kept', async () => {
    const { direct, stored } = await spawnFailure('sluice-no-such-command');
    expect(failureExitCode(direct)).toBe(127);
    expect(failureExitCode(stored)).toBe(127);
    expect(mirrorExitCode({ exitCode: null, signal: null, timedOut: false, errno: 'ENOENT' })).toBe(127);
  });

  it('a command that cannot be started: 126', async () => {
    const { direct, stored } = await spawnFailure(tmpdir()); // a directory: EACCES
    expect(failureExitCode(direct)).toBe(126);
    expect(failureExitCode(stored)).toBe(126);
  });

  it('timeouts and stalls 124, cancels 130, anything else 1', () => {
    expect(failureExitCode(new SluiceError('TIMEOUT', 'late'))).toBe(124);
    expect(failureExitCode(new SluiceError('STREAM_STALLED', 'stuck'))).toBe(124);
    expect(failureExitCode(new SluiceError('CANCELLED', 'stopped'))).toBe(130);
    expect(failureExitCode(new SluiceError('OWNER_LOST', 'gone'))).toBe(1);
    expect(failureExitCode(new Error('boom'))).toBe(1);
  });
});

describe.skipIf(redisServerPath === undefined)(
  'sluice exec --redis and sluice follow of a command not found',
  () => {
    const redis = redisForSuite();

    it('both exit 127', async () => {
      const runId = `missing-${randomUUID()}`;
      const writer = await startCli([
        'exec',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--',
        'sluice-no-such-command',
      ]);
      expect(writer.exitCode, writer.stderr).toBe(127);
      const follower = await startCli(['follow', '--redis', redis.url, runId]);
      expect(follower.exitCode, follower.stderr).toBe(127);
      expect(follower.stderr).toContain(
        `sluice: run ${runId}: SPAWN_FAILED: Command failed to spawn with ENOENT`,
      );
    });
  },
);
