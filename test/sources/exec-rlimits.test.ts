import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observable } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { type ExecEvent, type ExecResult, exec, isSluiceError } from '../../src/index.js';
import type * as FindExecutable from '../../src/sources/exec/find-executable.js';
import { prlimitCommand } from '../../src/sources/exec/rlimits.js';
import { fixture } from '../support/processes.js';
import { needs } from '../support/system-tools.js';

/** While `hidePrlimit` is set, the executable lookup behind `exec` does not find `prlimit`. */
const lookup = vi.hoisted(() => ({ hidePrlimit: false }));
vi.mock('../../src/sources/exec/find-executable.js', async (importOriginal) => {
  const actual = await importOriginal<typeof FindExecutable>();
  return {
    ...actual,
    findExecutable: (...args: Parameters<typeof actual.findExecutable>) =>
      lookup.hidePrlimit && args[0] === 'prlimit'
        ? ({ errno: 'ENOENT' } as const)
        : actual.findExecutable(...args),
  };
});

function result(source: Observable<ExecEvent>): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    source.subscribe({
      next: (event) => {
        if (event.kind === 'exit') resolve(event.content);
      },
      error: reject,
    });
  });
}

/** Python ignores SIGXFSZ by default: restore it, then write 100 kB in 1 kB writes. */
const writeFile = (path: string) =>
  [
    'import os, signal',
    'signal.signal(signal.SIGXFSZ, signal.SIG_DFL)',
    `fd = os.open(${JSON.stringify(path)}, os.O_WRONLY | os.O_CREAT)`,
    'for _ in range(100): os.write(fd, b"x" * 1000)',
  ].join('\n');

describe('exec rlimits', () => {
  it.skipIf(!needs('prlimit', 'python3'))(
    'kills a spinning child under cpuSeconds: 1 and says the cpu limit was hit',
    async () => {
      const started = performance.now();
      const outcome = await result(
        exec('python3', [fixture('exec-spin.py')], { rlimits: { cpuSeconds: 1 }, reject: false }),
      );
      expect(outcome).toMatchObject({ signal: 'SIGXCPU', exitCode: null, rlimitHit: 'cpu', timedOut: false });
      expect(performance.now() - started).toBeLessThan(20_000);
    },
  );

  it.skipIf(!needs('prlimit', 'python3'))(
    'errors with EXEC_FAILED naming the limit with reject: true',
    async () => {
      const error = await result(
        exec('python3', [fixture('exec-spin.py')], { rlimits: { cpuSeconds: 1 } }),
      ).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ code: 'EXEC_FAILED', info: { rlimitHit: 'cpu' } });
      expect((error as Error).message).toMatch(/^Command was killed with SIGXCPU \(cpu limit hit\)/);
    },
  );

  it.skipIf(!needs('prlimit', 'python3'))(
    'says the fileSize limit was hit (SIGXFSZ of the leader, or of a child of a shell)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sluice-rlimit-'));
      const direct = await result(
        exec('python3', ['-c', writeFile(join(dir, 'direct'))], {
          rlimits: { fileSizeBytes: 1000 },
          reject: false,
        }),
      );
      expect(direct).toMatchObject({ signal: 'SIGXFSZ', rlimitHit: 'fileSize' });
      const outcome = await result(
        exec('sh', ['-c', `head -c 100000 /dev/zero > ${join(dir, 'big')}`], {
          rlimits: { fileSizeBytes: 1000 },
          reject: false,
        }),
      );
      expect(outcome).toMatchObject({ exitCode: 128 + 25, rlimitHit: 'fileSize' });
    },
  );

  it.skipIf(!needs('prlimit', 'python3'))('says the openFiles limit was hit (EMFILE in stderr)', async () => {
    const script = 'import os\nfiles = [open(os.devnull) for _ in range(100)]';
    const outcome = await result(
      exec('python3', ['-c', script], { rlimits: { openFiles: 20 }, reject: false }),
    );
    expect(outcome).toMatchObject({ exitCode: 1, rlimitHit: 'openFiles' });
    expect(outcome.stderr).toContain('Too many open files');
  });

  it.skipIf(!needs('prlimit', 'python3'))(
    'says the addressSpace limit was hit (MemoryError in stderr)',
    async () => {
      const script = 'x = bytearray(1024 * 1024 * 1024)';
      const outcome = await result(
        exec('python3', ['-c', script], { rlimits: { addressSpaceBytes: 512 * 1024 * 1024 }, reject: false }),
      );
      expect(outcome).toMatchObject({ exitCode: 1, rlimitHit: 'addressSpace' });
    },
  );

  it.skipIf(!needs('prlimit', 'python3'))('reports no limit when the child stays within them', async () => {
    const outcome = await result(
      exec('python3', ['-c', 'print("fine")'], {
        rlimits: {
          cpuSeconds: 10,
          addressSpaceBytes: 512 * 1024 * 1024,
          openFiles: 64,
          fileSizeBytes: 1 << 20,
        },
      }),
    );
    expect(outcome).toMatchObject({ exitCode: 0, rlimitHit: null, stdout: 'fine\n' });
  });

  it('fails a missing command with SPAWN_FAILED, not as prlimit output', async () => {
    const error = await result(exec('sluice-no-such-command-xyz', [], { rlimits: { cpuSeconds: 1 } })).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'SPAWN_FAILED', info: { errno: 'ENOENT' } });
  });

  it.skipIf(!needs('prlimit'))(
    'errors with RLIMIT_UNAVAILABLE naming the limit when prlimit cannot set it, even with reject: false',
    async () => {
      // Above the kernel's nr_open: refused to root too. The command never runs.
      const marker = join(mkdtempSync(join(tmpdir(), 'sluice-rlimit-refused-')), 'ran');
      const error = await result(
        exec('sh', ['-c', `touch ${marker}`], { rlimits: { openFiles: 2 ** 30 }, reject: false }),
      ).catch((thrown: unknown) => thrown);
      expect(isSluiceError(error, 'RLIMIT_UNAVAILABLE')).toBe(true);
      expect((error as Error).message).toBe(
        'Cannot apply the `rlimits.openFiles` limit (1073741824): prlimit: failed to set the NOFILE resource limit: Operation not permitted',
      );
      expect(error).toMatchObject({ info: { limit: 'openFiles', rlimits: { openFiles: 2 ** 30 } } });
      expect(existsSync(marker)).toBe(false);
      // A command that fails by itself, with the same words on its stderr, is still the command's failure.
      const own = await result(
        exec(
          'sh',
          ['-c', 'echo out; echo "prlimit: failed to set the NOFILE resource limit: x" >&2; exit 1'],
          {
            rlimits: { openFiles: 64 },
            reject: false,
          },
        ),
      );
      expect(own).toMatchObject({ exitCode: 1, stdout: 'out\n' });
    },
  );

  it('errors with RLIMIT_UNAVAILABLE through exec, and runs nothing, when prlimit is missing', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'sluice-no-prlimit-')), 'ran');
    lookup.hidePrlimit = true;
    try {
      const error = await result(
        exec('sh', ['-c', `touch ${marker}`], { rlimits: { cpuSeconds: 5 }, reject: false }),
      ).catch((thrown: unknown) => thrown);
      expect(isSluiceError(error, 'RLIMIT_UNAVAILABLE')).toBe(true);
      expect(error).toMatchObject({ info: { rlimits: { cpuSeconds: 5 } } });
      expect((error as Error).message).toContain('`prlimit` (util-linux) was not found');
    } finally {
      lookup.hidePrlimit = false;
    }
    expect(existsSync(marker)).toBe(false);
    // The same command with prlimit found runs.
    await result(exec('sh', ['-c', `touch ${marker}`], { rlimits: { cpuSeconds: 5 } }));
    expect(existsSync(marker)).toBe(true);
  });

  it('refuses to run without limits when prlimit is missing (RLIMIT_UNAVAILABLE)', () => {
    const empty = mkdtempSync(join(tmpdir(), 'sluice-no-prlimit-'));
    let thrown: unknown;
    try {
      prlimitCommand('true', [], { cpuSeconds: 1 }, empty);
    } catch (error) {
      thrown = error;
    }
    expect(isSluiceError(thrown, 'RLIMIT_UNAVAILABLE')).toBe(true);
    expect((thrown as Error).message).toContain('prlimit');
    expect(prlimitCommand('true', ['x'], { cpuSeconds: 2, openFiles: 9 }, '/usr/bin')).toEqual({
      file: '/usr/bin/prlimit',
      args: ['--cpu=2:3', '--nofile=9', '--', 'true', 'x'],
    });
  });
});
