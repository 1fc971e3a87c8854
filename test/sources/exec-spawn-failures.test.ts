import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ExecOptions, exec, isSpawnError } from '../../src/index.js';

/** Subscribes and resolves with how the run ended, and how long that took. */
function settle(file: string, args: string[], options: ExecOptions = {}) {
  const started = performance.now();
  return new Promise<{ error?: unknown; completed?: true; ms: number }>((resolve) => {
    exec(file, args, options).subscribe({
      error: (error: unknown) => resolve({ error, ms: performance.now() - started }),
      complete: () => resolve({ completed: true, ms: performance.now() - started }),
    });
  });
}

const notExecutable = () => {
  const file = join(mkdtempSync(join(tmpdir(), 'sluice-spawn-')), 'script.sh');
  writeFileSync(file, '#!/bin/sh\necho hi\n');
  chmodSync(file, 0o644);
  return file;
};

// A failed spawn ends the stream at once; 5 s is a bound a loaded machine keeps, far from a hang.
const PROMPT_MS = 5000;

describe('exec: every way a spawn can fail ends the stream at once', () => {
  it.each([
    // Node throws these from its spawn, before a pid exists (reported synchronously as SPAWN_FAILED).
    ['ENOTDIR: cwd is a file', 'true', [], { cwd: '/etc/passwd' }, 'ENOTDIR', 'not a directory'],
    ['E2BIG: one 3 MB argument', 'true', ['x'.repeat(3_000_000)], {}, 'E2BIG', 'longer than the system'],
    ['E2BIG: a 3 MB environment value', 'true', [], { env: { BIG: 'x'.repeat(3_000_000) } }, 'E2BIG', ''],
    // These come as an 'error' event.
    ['ENOENT: no such command', 'sluice-no-such-command', [], {}, 'ENOENT', 'no such file'],
    ['ENOENT: no such cwd', 'true', [], { cwd: '/sluice/no/such/dir' }, 'ENOENT', 'does not exist'],
  ] as const)('%s → SPAWN_FAILED', async (_name, file, args, options, errno, detail) => {
    const run = await settle(file, [...args], options as ExecOptions);
    expect(isSpawnError(run.error)).toBe(true);
    expect(run.error).toMatchObject({
      code: 'SPAWN_FAILED',
      info: { errno, file, syscall: expect.any(String) },
    });
    expect((run.error as Error).message).toContain(detail);
    expect(run.ms).toBeLessThan(PROMPT_MS);
  });

  it('EACCES: a file that is not executable → SPAWN_FAILED with the path', async () => {
    const file = notExecutable();
    const run = await settle(file, []);
    expect(run.error).toMatchObject({ code: 'SPAWN_FAILED', info: { errno: 'EACCES', file, path: file } });
    expect(run.ms).toBeLessThan(PROMPT_MS);
  });

  it('the same under rlimits (the command is looked up before prlimit runs)', async () => {
    const run = await settle('true', [], { cwd: '/etc/passwd', rlimits: { openFiles: 64 } });
    expect(run.error).toMatchObject({ code: 'SPAWN_FAILED' });
    expect(run.ms).toBeLessThan(PROMPT_MS);
  });

  it('a value the OS cannot take is a TypeError before anything spawns', () => {
    expect(() => exec('true', ['a\0b'])).toThrow(TypeError);
    expect(() => exec('true', [], { env: { A: 'x\0y' } })).toThrow(TypeError);
    expect(() => exec('true', [], { cwd: '/tmp\0' })).toThrow(TypeError);
    expect(() => exec('env', [], { env: { 'A=B': 'c' } })).toThrow(
      'Expected the `env` option to be an object whose names are non-empty and contain no `=` or NUL, got `A=B` (string)',
    );
  });
});
