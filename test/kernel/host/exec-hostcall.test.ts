import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isSluiceError } from '../../../src/core/errors/sluice-error.js';
import { connectExtension } from '../../../src/kernel/bridge/connect-extension.js';
import { createHost } from '../../../src/kernel/host/create-host.js';
import { execPayloadOptions } from '../../../src/kernel/host/exec-hostcall.js';
import { groupGone } from '../../support/processes.js';
import { needs } from '../../support/system-tools.js';

const SPIN = 'import os\nprint(os.getpid(), flush=True)\nwhile True: pass';

describe('execPayloadOptions', () => {
  it('maps the payload, rlimits included, to options of the exec source', () => {
    expect(
      execPayloadOptions(
        {
          cmd: 'make',
          cwd: '/srv',
          env: { A: '1' },
          timeout_ms: 500,
          rlimits: { cpu_s: 2, as_bytes: 1024, fsize_bytes: 10, nofile: 64 },
        },
        asyncScheduler,
        true,
      ),
    ).toEqual({
      timeoutMs: 500,
      scheduler: asyncScheduler,
      reject: true,
      cwd: '/srv',
      env: { A: '1' },
      rlimits: { cpuSeconds: 2, addressSpaceBytes: 1024, fileSizeBytes: 10, openFiles: 64 },
    });
    expect(execPayloadOptions({ cmd: 'ls', rlimits: { nofile: 8 } }, asyncScheduler, false)).toEqual({
      timeoutMs: 0,
      scheduler: asyncScheduler,
      reject: false,
      rlimits: { openFiles: 8 },
    });
  });
});

describe('exec hostcalls with rlimits (real processes)', () => {
  it.skipIf(!needs('linux', 'prlimit', 'python3'))(
    'a streaming exec under cpu_s: 1 ends with EXEC_FAILED naming the limit; non-streaming answers rlimit_hit: cpu',
    async () => {
      const host = createHost({ logger: { warn: () => {} } });
      const { api } = connectExtension(host, 'ext-a');
      const streaming = (async () => {
        const values: unknown[] = [];
        try {
          for await (const value of api.exec('python3', ['-c', SPIN], {
            stream: true,
            rlimits: { cpuSeconds: 1 },
          })) {
            values.push(value);
          }
        } catch (error) {
          return { values, error };
        }
        return { values, error: undefined };
      })();
      const plain = api.exec('python3', ['-c', SPIN], { rlimits: { cpuSeconds: 1 }, timeoutMs: 30_000 });
      const [stream, result] = await Promise.all([streaming, plain]);

      expect(stream.values).toEqual([expect.stringMatching(/^\d+\n$/)]);
      expect(isSluiceError(stream.error, 'EXEC_FAILED')).toBe(true);
      expect((stream.error as Error).message).toMatch(
        /^Command was killed with SIG(XCPU|KILL) \(cpu limit hit\)/,
      );
      expect(await groupGone(Number.parseInt(String(stream.values[0]), 10))).toBe(true);

      expect(result).toMatchObject({ exitCode: null, timedOut: false, rlimitHit: 'cpu' });
      expect(['SIGXCPU', 'SIGKILL']).toContain((result as { signal: string }).signal);
      expect(host.activeStreams()).toEqual([]);
    },
  );

  it('rejects bad rlimits with INVALID_REQUEST naming the field, before anything spawns', async () => {
    const host = createHost({ logger: { warn: () => {} } });
    const { api } = connectExtension(host, 'ext-a');
    const bad = (rlimits: unknown) =>
      api.exec('python3', ['-c', SPIN], { rlimits: rlimits as never }).catch((error: unknown) => error);
    expect(await bad({ cpuSeconds: 0 })).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'Invalid hostcall request: `payload.rlimits.cpu_s` must be a positive integer, got 0 (number)',
    });
    expect(await bad({ cpu: 1 })).toMatchObject({
      message: 'Invalid hostcall request: `payload.rlimits.cpu` is not a known field, got 1 (number)',
    });
    expect(await bad(5)).toMatchObject({
      message: 'Invalid hostcall request: `payload.rlimits` must be an object, got 5 (number)',
    });
  });
});
