import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { filter, from, lastValueFrom, map, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { bridgeCodec } from '../../src/kernel/protocol/bridge-codec.js';
import type { OutcomeCodec } from '../../src/kernel/protocol/define-codec.js';
import { createFrameDecoder } from '../../src/kernel/protocol/frame-decoder.js';
import type { HostcallFrame } from '../../src/kernel/protocol/hostcall-frame.js';
import { serdeCodec } from '../../src/kernel/protocol/serde-codec.js';
import { checkSequence } from '../../src/operators/check-sequence.js';
import { groupGone, liveGroupMembers, pollUntil } from '../support/processes.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { CLI } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

/** Runs the CLI as a user would: a separate Node process, the built CLI. */
const sluice = (args: string[], options: { buffer?: boolean } = {}) =>
  execa(process.execPath, [CLI, ...args], {
    reject: false,
    stripFinalNewline: false,
    ...options,
  });

function decodeAll(text: string, codec: OutcomeCodec): HostcallFrame[] {
  const decoder = createFrameDecoder(codec);
  const out = [...decoder.push(text), ...decoder.end()];
  for (const item of out) if (item instanceof Error) throw item;
  return out as HostcallFrame[];
}

/** The stream chunks among `outcomes` as chunk events, through `checkSequence()` (it errors on a gap). */
const checkedChunks = (outcomes: HostcallFrame['outcome'][]) =>
  lastValueFrom(
    from(outcomes).pipe(
      filter((c) => c.type === 'streamChunk'),
      map((c) => ({ sequence: c.sequence, kind: 'chunk', content: c.chunk, isFinal: c.isFinal })),
      checkSequence(),
      toArray(),
    ),
  );

describe('sluice exec (text)', () => {
  it('streams stdout and stderr to their own streams and mirrors the exit code', async () => {
    const result = await sluice(['exec', '--', 'sh', '-c', 'echo one; echo two >&2; printf three; exit 3']);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('one\nthree');
    expect(result.stderr).toMatch(
      /^two\nsluice: sh -c 'echo one; echo two >&2; printf three; exit 3': exit 3 · [\d.]+m?s · 3 lines · 13 B( · cpu .*)?\n$/,
    );
  });

  it('names the command in the summary line quoted as the echo line quotes it', async () => {
    const result = await runCliInProcess(['exec', '--', 'sh', '-c', 'echo out; echo "it\'s" >&2; exit 3']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^sluice: sh -c 'echo out; echo "it'\\''s" >&2; exit 3': exit 3 · /m);
  });

  it('exits 128 + n when the command dies by signal n, and 124 on timeout', async () => {
    const killed = await sluice(['exec', '--', 'sh', '-c', 'kill -TERM $$']);
    expect(killed.exitCode).toBe(143);
    expect(killed.stderr).toContain('killed by SIGTERM');
    const slow = await sluice(['exec', '--timeout-ms', '1500', '--', 'sh', '-c', 'echo started; sleep 30']);
    expect(slow.exitCode).toBe(124);
    expect(slow.stdout).toBe('started\n');
    expect(slow.stderr).toContain('timed out');
  });

  it('exits 127 when the command does not exist, and 2 on a bad command line', async () => {
    const missing = await sluice(['exec', '--', 'sluice-no-such-command']);
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toContain('ENOENT');
    const bad = await sluice(['exec', '--buffer-size', 'many', '--', 'ls']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      'sluice: Expected the `--buffer-size` flag to be a whole number from 1 to 1000000, got `many` (string)\nTry `sluice exec --help`.\n',
    );
  });

  it('runs the demo with no arguments: its lines, then the summary, exit 0', async () => {
    const demo = await sluice([]);
    expect(demo.exitCode).toBe(0);
    const out = (demo.stdout as string).split('\n');
    expect(out[0]).toBe('== resolving dependencies');
    expect(out.at(-2)).toBe('done: 487 steps');
    // 494 lines on stdout, 5 warnings on stderr, then the summary line.
    expect(out).toHaveLength(494 + 1);
    const err = (demo.stderr as string).split('\n');
    expect(err.filter((line) => line.startsWith('warning: '))).toHaveLength(5);
    expect(err.at(-2)).toMatch(/^sluice: demo: exit 0 · [\d.]+m?s · 499 lines · [\d.]+ KiB( · cpu .*)?$/);
  });

  it('shows each warning of the demo where it was written, on one output as a terminal has', async () => {
    // stdout and stderr into one pipe, in the order sluice writes them, as on a terminal.
    const demo = await execa('sh', ['-c', '"$0" "$1" demo 2>&1', process.execPath, CLI], {
      reject: false,
    });
    expect(demo.exitCode).toBe(0);
    const lines = demo.stdout.split('\n');
    const lineBefore = (warning: string) => lines[lines.findIndex((line) => line.startsWith(warning)) - 1];
    expect(lineBefore('warning: src/legacy.js')).toBe('compiling 18/40');
    expect(lineBefore('warning: src/util.js')).toBe('compiling 33/40');
    expect(lineBefore('warning: test "slow io"')).toBe('running tests 12/30');
    expect(lineBefore('warning: 2 tests skipped')).toBe('running tests 27/30');
    expect(lineBefore('warning: 3 files')).toBe('writing report 6/10');
  });

  it('prints help with examples', async () => {
    const help = await sluice(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('sluice exec [options] -- <command> [args…]');
    expect(help.stdout).toContain('Examples:');
  });

  it.skipIf(!needs('linux', 'ps'))('kills the whole process group and exits 130 on SIGINT', async () => {
    const child = sluice(['exec', '--', 'sh', '-c', 'echo $$; sleep 300 & sleep 300'], { buffer: false });
    const pgid = await new Promise<number>((resolve) => {
      child.stdout?.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
    });
    expect(liveGroupMembers(pgid).length).toBeGreaterThan(0);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(await pollUntil(() => liveGroupMembers(pgid).length === 0, 10_000)).toBe(true);
  });
});

describe('sluice exec --json', () => {
  it.each([
    ['bridge', bridgeCodec],
    ['serde', serdeCodec],
  ] as const)('writes %s frames that decode with the codec, the final chunk last', async (wire, codec) => {
    const result = await sluice([
      'exec',
      '--json',
      '--wire',
      wire,
      '--call-id',
      'hc-42',
      '--',
      'sh',
      '-c',
      'echo "line 1"; echo "oops" >&2; echo "done"',
    ]);
    expect(result.exitCode).toBe(0);
    const frames = decodeAll(result.stdout as string, codec);
    expect(frames.every((f) => f.callId === 'hc-42')).toBe(true);
    const chunks = frames.map((f) => f.outcome);
    const payloads = chunks.map((c) => (c.type === 'streamChunk' ? c.chunk : c));
    // stdout keeps its order and stderr its own; how the two pipes interleave is up to the OS.
    expect(payloads.filter((p) => typeof p === 'string')).toEqual(['line 1\n', 'done\n']);
    expect(payloads.filter((p) => typeof p === 'object' && p !== null && 'stderr' in p)).toEqual([
      { stderr: 'oops\n' },
    ]);
    expect(payloads.at(-1)).toEqual(
      expect.objectContaining({ exit_code: 0, signal: null, timed_out: false, truncated: false }),
    );
    const events = await checkedChunks(chunks);
    expect(events.at(-1)?.isFinal).toBe(true);
  });

  it('ends a failing command with one Error outcome after its lines, its exit as data just before', async () => {
    const result = await sluice(['exec', '--json', '--', 'sh', '-c', 'echo partial; exit 1']);
    expect(result.exitCode).toBe(1);
    const outcomes = decodeAll(result.stdout as string, bridgeCodec).map((f) => f.outcome);
    expect(outcomes).toEqual([
      { type: 'streamChunk', sequence: 0, chunk: 'partial\n', isFinal: false },
      {
        type: 'streamChunk',
        sequence: 1,
        chunk: {
          exit: {
            exit_code: 1,
            signal: null,
            timed_out: false,
            truncated: false,
            rlimit_hit: null,
            duration_ms: expect.any(Number),
          },
        },
        isFinal: false,
      },
      { type: 'error', code: 'EXEC_FAILED', message: expect.stringContaining('exit code 1') },
    ]);
  });

  it('reports a timeout as a TIMEOUT error and keeps the lines before it', async () => {
    const result = await sluice([
      'exec',
      '--json',
      '--timeout-ms',
      '1500', // room for the child's first line on a loaded machine
      '--',
      'sh',
      '-c',
      'echo a; sleep 30',
    ]);
    expect(result.exitCode).toBe(124);
    const outcomes = decodeAll(result.stdout as string, bridgeCodec).map((f) => f.outcome);
    expect(outcomes[0]).toEqual({ type: 'streamChunk', sequence: 0, chunk: 'a\n', isFinal: false });
    expect(outcomes[1]).toMatchObject({
      type: 'streamChunk',
      sequence: 1,
      chunk: { exit: { exit_code: null, signal: 'SIGTERM', timed_out: true } },
    });
    expect(outcomes[2]).toMatchObject({ type: 'error', code: 'TIMEOUT' });
    expect(outcomes).toHaveLength(3);
  });
});

describe('sluice exec --json: the same frames whether exec pushes into the queue or not', () => {
  /** The outcomes of a run, by kind: what does not depend on how the two pipes interleave. */
  const byKind = (stdout: string) => {
    const outcomes = decodeAll(stdout, bridgeCodec).map((f) => f.outcome);
    const payloads = outcomes.map((c) => (c.type === 'streamChunk' ? c.chunk : c));
    const last = JSON.stringify(outcomes.slice(-2)).replace(/"duration_ms":[\d.]+/g, '"duration_ms":0');
    return {
      lines: payloads.filter((p) => typeof p === 'string'),
      stderr: payloads.filter((p) => typeof p === 'object' && p !== null && 'stderr' in p),
      last: last.replace(/"sequence":\d+/g, '"sequence":0'),
      count: outcomes.length,
    };
  };

  it.each([
    ['lines on both pipes, exit 1', ['sh', '-c', 'printf "a\\nb\\n"; echo warn >&2; printf c; exit 1']],
    ['exit 0', ['sh', '-c', 'echo one; echo two']],
    ['a command that does not exist', ['sluice-no-such-command-42']],
  ])(
    '%s: no stall timeout (exec pushes into the queue) against one (exec keeps its own)',
    async (_name, command) => {
      const direct = await sluice(['exec', '--json', '--', ...command]);
      const chained = await sluice(['exec', '--json', '--stall-timeout-ms', '60000', '--', ...command]);
      expect(direct.exitCode).toBe(chained.exitCode);
      expect(byKind(direct.stdout as string)).toEqual(byKind(chained.stdout as string));
    },
  );

  it('keeps every line in sequence through a small buffer, with no warning', async () => {
    const result = await sluice(['exec', '--json', '--buffer-size', '2', '--', 'seq', '1', '20000']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const chunks = decodeAll(result.stdout as string, bridgeCodec).map((f) => f.outcome);
    const events = await checkedChunks(chunks);
    expect(events).toHaveLength(20_001);
    expect(events[19_999]?.content).toBe('20000\n');
  });
});

describe('sluice exec --json with a reader that stops reading', () => {
  it.skipIf(!needs('linux', 'ps'))(
    'stalls: kills the command, exits 124, and ends the frames with a null final chunk',
    async () => {
      const pidFile = join(mkdtempSync(join(tmpdir(), 'sluice-cli-stall-')), 'pid');
      const child = sluice(
        [
          'exec',
          '--json',
          '--stall-timeout-ms',
          '200',
          '--buffer-size',
          '4',
          '--',
          'sh',
          '-c',
          `echo $$ > ${pidFile}; exec yes`,
        ],
        { buffer: false },
      );
      // Nobody reads the CLI's stdout: its pipe fills up with frames, its writes wait for 'drain',
      // its onChunk queue fills, the demand pauses `yes`, and 200 ms later the stall fires.
      // (An explicit pause: with `buffer: false` execa resumes — drains — a stream nobody reads.)
      child.stdout?.pause();
      let stderr = '';
      const stalled = new Promise<void>((resolve) => {
        child.stderr?.on('data', (data: Buffer) => {
          stderr += String(data);
          if (stderr.includes('Stream stalled')) resolve();
        });
      });
      await stalled;
      expect(stderr).toBe('sluice: Stream stalled: consumer did not pull for 0.2s\n');
      expect(existsSync(pidFile)).toBe(true);
      const pgid = Number(readFileSync(pidFile, 'utf8'));
      expect(pgid).toBeGreaterThan(0);
      expect(await groupGone(pgid, 10_000)).toBe(true); // `yes` is gone while the output still waits
      expect(liveGroupMembers(pgid)).toEqual([]);
      // Now read everything the CLI wrote.
      let stdout = '';
      child.stdout?.on('data', (data: Buffer) => {
        stdout += String(data);
      });
      child.stdout?.resume();
      const result = await child;
      expect(result.exitCode).toBe(124);
      const outcomes = decodeAll(stdout, bridgeCodec).map((frame) => frame.outcome);
      expect(outcomes.length).toBeGreaterThan(100); // the pipe was full of `y` lines first
      expect(outcomes.slice(0, -1).every((o) => o.type === 'streamChunk' && o.chunk === 'y\n')).toBe(true);
      expect(outcomes.at(-1)).toEqual({
        type: 'streamChunk',
        sequence: outcomes.length - 1,
        chunk: null,
        isFinal: true,
      });
      const events = outcomes.map((o) =>
        o.type === 'streamChunk'
          ? { sequence: o.sequence, kind: 'chunk', content: o.chunk, isFinal: o.isFinal }
          : o,
      );
      await lastValueFrom(from(events as never[]).pipe(checkSequence(), toArray()));
    },
  );
});

describe('sluice on a terminal', () => {
  it.skipIf(!needs('linux', 'script'))(
    'shows lines live with a status line and a summary (under a pseudo-terminal)',
    async () => {
      // `script` gives the CLI a real pty; the child prints, then waits for a file the test creates
      // only after the first line has reached the terminal, so the line is shown before the exit.
      const flag = `/tmp/sluice-cli-tty-${process.pid}-${Date.now()}`;
      const command = `${process.execPath} ${CLI} exec --color -- sh -c 'echo first; echo warn >&2; while [ ! -e ${flag} ]; do sleep 0.05; done; echo last'`;
      const run = execa('script', ['-q', '-e', '-c', command, '/dev/null'], { reject: false, buffer: false });
      let screen = '';
      let released = false;
      run.stdout?.on('data', (data: Buffer) => {
        screen += String(data);
        if (!released && screen.includes('lines/s') && screen.includes('first')) {
          released = true;
          execa('touch', [flag]).catch(() => undefined);
        }
      });
      const result = await run;
      expect(result.exitCode).toBe(0);
      expect(released).toBe(true);
      const plain = screen.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
      expect(plain.indexOf('first')).toBeLessThan(plain.indexOf('last'));
      expect(screen).toContain('\x1b[31mwarn'); // stderr in red
      expect(plain).toMatch(/\d+\.\ds · \d+ lines? .*· \d+ lines\/s/); // the live status line
      expect(plain).toMatch(/exit 0 · .* · 3 lines/);
      expect(readFileSync(flag, 'utf8')).toBe('');
    },
  );
});
