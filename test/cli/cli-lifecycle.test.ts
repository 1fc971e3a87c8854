import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../src/core/deferred.js';
import { bridgeCodec } from '../../src/kernel/protocol/bridge-codec.js';
import { createFrameDecoder } from '../../src/kernel/protocol/frame-decoder.js';
import type { HostcallOutcome } from '../../src/kernel/protocol/hostcall-outcome.js';
import { groupAlive, groupGone } from '../support/processes.js';
import { CLI } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

/** The CLI as a user runs it: a separate Node process (the built CLI), stdout a pipe. */
const sluice = (args: string[]) => execa(process.execPath, [CLI, ...args], { reject: false, buffer: false });

/** Collects a stream's text, and resolves `first` with its first chunk. */
function collect(stream: NodeJS.ReadableStream | null | undefined) {
  let text = '';
  const first = deferred<string>();
  stream?.on('data', (data: Buffer) => {
    if (text === '') first.resolve(String(data));
    text += String(data);
  });
  return { first: first.promise, text: () => text };
}

function outcomes(text: string): HostcallOutcome[] {
  const decoder = createFrameDecoder(bridgeCodec);
  return [...decoder.push(text), ...decoder.end()].map((item) => {
    if (item instanceof Error) throw item;
    return item.outcome;
  });
}

/** Resolves with the time (performance.now()) at which group `pgid` had no live member left. */
async function goneAt(pgid: number): Promise<number> {
  while (groupAlive(pgid)) await new Promise((resolve) => setTimeout(resolve, 5));
  return performance.now();
}

const SIGNALS = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGQUIT', 131],
] as const;

describe.skipIf(!needs('linux'))('sluice exec and fatal signals', () => {
  it.each(SIGNALS)(
    '%s kills the group, says so, and exits %i soon after the group is gone',
    async (signal, code) => {
      const child = sluice(['exec', '--', 'sh', '-c', 'echo $$; sleep 300 & sleep 300']);
      const stdout = collect(child.stdout);
      const stderr = collect(child.stderr);
      const pgid = Number((await stdout.first).trim());
      expect(groupAlive(pgid)).toBe(true);
      child.kill(signal);
      const gone = goneAt(pgid);
      const result = await child;
      const exitedAt = performance.now();
      expect(result.exitCode).toBe(code);
      expect(await groupGone(pgid, 5_000)).toBe(true);
      // The CLI waited for the group, then left at once: not at the force-kill timer, 2 s after the
      // signal (the bound is generous for a loaded machine, and still below that timer).
      expect(exitedAt - (await gone)).toBeLessThan(1_500);
      expect(stderr.text()).toMatch(
        new RegExp(
          `^sluice: sh -c .*: interrupted by ${signal} · killed by SIGTERM · [\\d.]+m?s · 1 line · \\d+ B\\n$`,
        ),
      );
    },
  );

  it.each(SIGNALS)(
    '--json on %s: exactly one terminal frame, CANCELLED, after the exit as data',
    async (signal, code) => {
      const child = sluice(['exec', '--json', '--', 'sh', '-c', 'echo $$; sleep 300 & sleep 300']);
      const stdout = collect(child.stdout);
      const first = outcomes(await stdout.first)[0];
      const pgid = Number(String(first?.type === 'streamChunk' ? first.chunk : '').trim());
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(code);
      expect(await groupGone(pgid, 5_000)).toBe(true);
      const all = outcomes(stdout.text());
      expect(all).toEqual([
        { type: 'streamChunk', sequence: 0, chunk: `${pgid}\n`, isFinal: false },
        {
          type: 'streamChunk',
          sequence: 1,
          chunk: {
            exit: {
              exit_code: null,
              signal: 'SIGTERM',
              timed_out: false,
              truncated: false,
              rlimit_hit: null,
              duration_ms: expect.any(Number),
              cancelled_by: signal,
            },
          },
          isFinal: false,
        },
        {
          type: 'error',
          code: 'CANCELLED',
          message: `Command was cancelled (sluice was interrupted by ${signal}): sh -c 'echo $$; sleep 300 & sleep 300'`,
        },
      ]);
    },
  );
});

describe.skipIf(!needs('linux'))('sluice exec when the reader goes away (| head -1)', () => {
  it.each([[[]], [['--json']]])('%j: kills the group, exits 141 at once, and says nothing', async (flags) => {
    const child = sluice(['exec', ...flags, '--', 'sh', '-c', 'echo $$; exec yes']);
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    const text = await stdout.first;
    const pgid = Number(/^(?:\{.*"chunk":")?(\d+)/.exec(text)?.[1]);
    expect(pgid).toBeGreaterThan(0);
    const closedAt = performance.now();
    child.stdout?.destroy(); // what `head -1` does once it has its line
    const result = await child;
    expect(result.exitCode).toBe(141);
    expect(performance.now() - closedAt).toBeLessThan(3_000);
    expect(stderr.text()).toBe('');
    expect(await groupGone(pgid, 5_000)).toBe(true);
  });

  it('the same under a real shell pipeline: `sluice exec -- yes | head -1`', async () => {
    const command = `${process.execPath} ${CLI} exec -- yes | head -1; echo "status \${PIPESTATUS[0]}"`;
    const result = await execa('bash', ['-c', command], { reject: false });
    expect(result.stdout).toBe('y\nstatus 141');
    expect(result.stderr).toBe('');
  });
});

describe('sluice exec text output', () => {
  it('on a pipe: the bytes as the command wrote them, a long line counted once, an honest summary', async () => {
    const script = `printf 'a\\377\\376\\n'; head -c 200000 /dev/zero | tr '\\0' x; echo; seq 1 3`;
    const child = execa(process.execPath, [CLI, 'exec', '--', 'sh', '-c', script], {
      reject: false,
      encoding: 'buffer',
      stripFinalNewline: false,
    });
    const result = await child;
    expect(result.exitCode).toBe(0);
    const bytes = Buffer.from(result.stdout as Uint8Array);
    expect([...bytes.subarray(0, 4)]).toEqual([0x61, 0xff, 0xfe, 0x0a]);
    expect(bytes.subarray(4).toString()).toBe(`${'x'.repeat(200_000)}\n1\n2\n3\n`);
    expect(Buffer.from(result.stderr as Uint8Array).toString()).toMatch(
      /: exit 0 · [\d.]+m?s · 5 lines · 195.3 KiB( · cpu .*)?\n$/,
    );
  });

  it('says nothing of the in-memory result being truncated: every line was shown', async () => {
    const result = await execa(process.execPath, [CLI, 'exec', '--', 'seq', '1', '100000'], {
      reject: false,
    });
    expect(result.stdout.split('\n')).toHaveLength(100_000);
    expect(result.stderr).toMatch(/: exit 0 · [\d.]+m?s · 100000 lines · 575.1 KiB( · cpu .*)?$/);
    expect(result.stderr).not.toContain('truncated');
  });

  it.skipIf(!needs('linux', 'script'))(
    'on a terminal: a 200,000-character line is shown whole and counted as one line',
    async () => {
      const long = `head -c 200000 /dev/zero | tr '\\0' x; echo; echo after`;
      const command = `${process.execPath} ${CLI} exec --no-color -- sh -c "${long}"`;
      const run = await execa('script', ['-q', '-e', '-c', command, '/dev/null'], { reject: false });
      expect(run.exitCode).toBe(0);
      const screen = String(run.stdout)
        .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
        .replaceAll('\r', '');
      // One run of 200,000 x's (no row break inside it), ended by its newline, then the next line.
      expect(screen).toContain(`${'x'.repeat(200_000)}\n`);
      expect(screen.match(/x{100,}/g)).toEqual(['x'.repeat(200_000)]);
      expect(screen.indexOf('after\n')).toBeGreaterThan(screen.indexOf('x'));
      expect(screen).toMatch(/exit 0 · [\d.]+m?s · 2 lines/);
    },
  );
});

describe('sluice exec with a directory that will not do', () => {
  it('--cwd "" is a usage error (exit 2), no stack trace', async () => {
    const result = await execa(process.execPath, [CLI, 'exec', '--cwd', '', '--', 'true'], {
      reject: false,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'sluice: Expected the `--cwd` flag to be a directory, got `` (string)\nTry `sluice exec --help`.',
    );
  });

  it('--cwd naming a file fails the spawn (exit 126) instead of exiting 0 with no output', async () => {
    const result = await execa(process.execPath, [CLI, 'exec', '--cwd', '/etc/passwd', '--', 'true'], {
      reject: false,
    });
    expect(result.exitCode).toBe(126);
    expect(result.stderr).toContain('ENOTDIR');
    expect(result.stderr).toContain('the `cwd` option is not a directory: /etc/passwd');
  });
});
