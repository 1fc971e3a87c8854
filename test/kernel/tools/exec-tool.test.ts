import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Valve } from '../../../src/core/demand.js';
import { type CancelledError, isCancelledError } from '../../../src/core/errors/cancelled-error.js';
import { dispatchToolCall } from '../../../src/kernel/tools/dispatch-tool-call.js';
import { execToolArgsSchema } from '../../../src/kernel/tools/exec-tool-args.js';
import type { ExecToolResult, ExecToolWireResult } from '../../../src/kernel/tools/exec-tool-result.js';
import type { ToolChunk, ToolResult } from '../../../src/kernel/tools/tool.js';
import { createToolRegistry, registerBuiltinTools } from '../../../src/kernel/tools/tool-registry.js';
import { fixture, groupAlive, groupGone, pollUntil, writtenBytes } from '../../support/processes.js';
import { needs } from '../../support/system-tools.js';

const registry = registerBuiltinTools(createToolRegistry());

async function run(
  args: Record<string, unknown>,
  onChunk?: (chunk: ToolChunk) => void,
  signal?: AbortSignal,
): Promise<ToolResult> {
  return dispatchToolCall({
    msg: { op: 'tool_call', id: 1, name: 'Exec', args },
    pid: 7,
    registry,
    onChunk,
    signal,
  });
}

async function execOk(args: Record<string, unknown>, onChunk?: (chunk: ToolChunk) => void) {
  const result = await run(args, onChunk);
  if (!result.ok) throw new Error(`Exec failed: ${result.error.code} ${result.error.message}`);
  return result.value as ExecToolWireResult;
}

const collector = () => {
  const chunks: ToolChunk[] = [];
  return { chunks, onChunk: (chunk: ToolChunk) => void chunks.push(chunk) };
};
const text = (chunks: ToolChunk[], kind: string) =>
  chunks
    .filter((chunk) => chunk.kind === kind)
    .map((chunk) => chunk.content)
    .join('');
// What differs between two runs of the same command: their duration and (in a cgroup) their CPU time.
const withoutDuration = ({ duration_ms, usage, ...rest }: ExecToolWireResult) => rest;
const PY_OUT_ERR =
  'import sys\nfor i in range(3):\n  print(f"out {i}", flush=True)\nfor i in range(2):\n  sys.stderr.write(f"err {i}\\n")\n';

describe.skipIf(!needs('linux'))('Exec tool', () => {
  it.skipIf(!needs('python3'))(
    'stream false (default) emits ZERO chunks with an onChunk set; output unchanged',
    async () => {
      const { chunks, onChunk } = collector();
      const result = await execOk({ argv: ['python3', '-c', PY_OUT_ERR] }, onChunk);
      expect(chunks).toEqual([]);
      expect(result).toMatchObject({
        exit_code: 0,
        signal: null,
        stdout: 'out 0\nout 1\nout 2\n',
        stderr: 'err 0\nerr 1\n',
        truncated: false,
        timed_out: false,
      });
      expect(result).not.toHaveProperty('rlimit_hit');
      const explicit = await execOk({ argv: ['python3', '-c', PY_OUT_ERR], stream: false }, onChunk);
      expect(chunks).toEqual([]);
      expect(withoutDuration(explicit)).toEqual(withoutDuration(result));
    },
  );

  it.skipIf(!needs('python3'))(
    'stream true with onChunk emits one chunk per stdout line and one per stderr line',
    async () => {
      const { chunks, onChunk } = collector();
      const result = await execOk({ argv: ['python3', '-c', PY_OUT_ERR], stream: true }, onChunk);
      expect(chunks.filter((chunk) => chunk.kind === 'stdout')).toEqual(
        ['out 0\n', 'out 1\n', 'out 2\n'].map((content) => ({
          op: 'chunk',
          kind: 'stdout',
          content,
          metadata: { tool: 'Exec' },
        })),
      );
      expect(chunks.filter((chunk) => chunk.kind === 'stderr').map((chunk) => chunk.content)).toEqual([
        'err 0\n',
        'err 1\n',
      ]);
      expect(chunks).toHaveLength(5);
      const buffered = await execOk({ argv: ['python3', '-c', PY_OUT_ERR], stream: false });
      expect(withoutDuration(result)).toEqual(withoutDuration(buffered));
    },
  );

  it.skipIf(!needs('python3'))(
    'stream true without an onChunk falls back to the buffered path with the same result',
    async () => {
      const streamed = await execOk({ argv: ['python3', '-c', PY_OUT_ERR], stream: true });
      const buffered = await execOk({ argv: ['python3', '-c', PY_OUT_ERR] });
      expect(withoutDuration(streamed)).toEqual(withoutDuration(buffered));
      expect(streamed.stdout).toBe('out 0\nout 1\nout 2\n');
    },
  );

  it.skipIf(!needs('python3'))(
    'lines are emitted in arrival order; concatenated stdout chunks reproduce stdout',
    async () => {
      // Ping-pong: the child writes one line, alternating stdout and stderr, and waits for the
      // acknowledgement the test writes from onChunk before the next one — so arrival order is known.
      const dir = mkdtempSync(join(tmpdir(), 'sluice-exec-order-'));
      const script = [
        'import os, sys, time',
        'for i in range(6):',
        '  stream = sys.stdout if i % 2 == 0 else sys.stderr',
        '  stream.write(f"line {i}\\n"); stream.flush()',
        '  while not os.path.exists(os.path.join(sys.argv[1], f"ack{i}")): time.sleep(0.005)',
        'print("\\n".join(f"bulk {i}" for i in range(2000)))',
      ].join('\n');
      const chunks: ToolChunk[] = [];
      const result = await execOk({ argv: ['python3', '-c', script, dir], stream: true }, (chunk) => {
        writeFileSync(join(dir, `ack${chunks.length}`), '');
        chunks.push(chunk);
      });
      expect(chunks.slice(0, 6).map((chunk) => [chunk.kind, chunk.content])).toEqual([
        ['stdout', 'line 0\n'],
        ['stderr', 'line 1\n'],
        ['stdout', 'line 2\n'],
        ['stderr', 'line 3\n'],
        ['stdout', 'line 4\n'],
        ['stderr', 'line 5\n'],
      ]);
      expect(chunks.slice(6).map((chunk) => chunk.content)).toEqual(
        Array.from({ length: 2000 }, (_, i) => `bulk ${i}\n`),
      );
      expect(text(chunks, 'stdout')).toBe(result.stdout);
      expect(text(chunks, 'stderr')).toBe(result.stderr);
    },
  );

  describe('stdout and stderr in the result match what was streamed (modulo truncation)', () => {
    const cap = 1024;
    const cases = [
      { name: 'exactly at max_output_bytes', lines: ['x'.repeat(cap - 1)], truncated: false },
      { name: 'one byte over max_output_bytes', lines: ['x'.repeat(cap)], truncated: true },
      {
        name: 'far over max_output_bytes',
        lines: Array.from({ length: 200 }, (_, i) => `${String(i).padStart(4, '0')} ${'y'.repeat(95)}`),
        truncated: true,
      },
    ];
    for (const { name, lines, truncated } of cases) {
      it.skipIf(!needs('python3'))(name, async () => {
        const script = `import sys, json\nfor line in json.loads(sys.argv[1]):\n  sys.stdout.write(line + "\\n")\n  sys.stderr.write(line + "\\n")\n`;
        const argv = ['python3', '-c', script, JSON.stringify(lines)];
        const { chunks, onChunk } = collector();
        const result = await execOk({ argv, stream: true, max_output_bytes: cap }, onChunk);
        const written = lines.map((line) => `${line}\n`).join('');
        // Every line still streams past the cap …
        expect(chunks.filter((chunk) => chunk.kind === 'stdout')).toHaveLength(lines.length);
        expect(text(chunks, 'stdout')).toBe(written);
        expect(text(chunks, 'stderr')).toBe(written);
        // … while the result keeps exactly the first max_output_bytes bytes and says so.
        expect(result.truncated).toBe(truncated);
        expect(result.stdout).toBe(written.slice(0, cap));
        expect(result.stderr).toBe(written.slice(0, cap));
        const buffered = await execOk({ argv, max_output_bytes: cap });
        expect(withoutDuration(buffered)).toEqual(withoutDuration(result));
      });
    }
  });

  it('the wall-clock timeout fires under streaming; chunks up to the kill are preserved', async () => {
    const { chunks, onChunk } = collector();
    const result = await execOk(
      { argv: ['sh', '-c', 'echo $$; echo warming up >&2; exec sleep 30'], stream: true, timeout_s: 1 },
      onChunk,
    );
    expect(result.timed_out).toBe(true);
    expect(result.exit_code).toBeNull();
    expect(result.signal).not.toBeNull();
    expect(chunks.map((chunk) => chunk.kind).sort()).toEqual(['stderr', 'stdout']);
    expect(text(chunks, 'stdout')).toBe(result.stdout);
    expect(text(chunks, 'stderr')).toBe('warming up\n');
    expect(result.duration_ms).toBeGreaterThanOrEqual(900);
    expect(result.duration_ms).toBeLessThan(20_000);
    expect(await groupGone(Number(result.stdout.trim()))).toBe(true);
  });

  it.skipIf(!needs('python3'))(
    'keeps line boundaries for a line longer than 64 KiB: its pieces are marked partial',
    async () => {
      const { chunks, onChunk } = collector();
      const long = 'x'.repeat(150_000);
      const script = 'import sys\nsys.stdout.write("x" * 150000 + "\\nshort\\n")';
      const result = await execOk({ argv: ['python3', '-c', script], stream: true }, onChunk);
      expect(text(chunks, 'stdout')).toBe(`${long}\nshort\n`);
      expect(result.stdout).toBe(`${long}\nshort\n`);
      const pieces = chunks.map((chunk) => [String(chunk.content).length, chunk.metadata]);
      expect(pieces).toEqual([
        [65_536, { tool: 'Exec', partial: true }],
        [65_536, { tool: 'Exec', partial: true }],
        [150_001 - 2 * 65_536, { tool: 'Exec' }],
        ['short\n'.length, { tool: 'Exec' }],
      ]);
    },
  );

  it.skipIf(!needs('prlimit', 'python3'))(
    'RLIMIT enforcement holds under streaming (a spinning child dies under cpu_s 1)',
    async () => {
      const { chunks, onChunk } = collector();
      const result = await execOk(
        {
          argv: ['python3', '-c', 'print("spinning", flush=True)\nwhile True: pass'],
          stream: true,
          timeout_s: 30,
          rlimits: { cpu_s: 1 },
        },
        onChunk,
      );
      expect(chunks).toEqual([
        { op: 'chunk', kind: 'stdout', content: 'spinning\n', metadata: { tool: 'Exec' } },
      ]);
      expect(result.timed_out).toBe(false);
      expect(result.exit_code).toBeNull();
      expect(['SIGXCPU', 'SIGKILL']).toContain(result.signal);
      expect(result.rlimit_hit).toBe('cpu');
      expect(result.duration_ms).toBeLessThan(25_000);
    },
  );

  it.skipIf(!needs('prlimit', 'python3'))(
    'applies the default 512 MB address-space limit to a non-Node child',
    async () => {
      const grab =
        'import sys\ntry:\n  b = bytearray(600 * 1024 * 1024)\n  print("allocated")\nexcept MemoryError:\n  print("MemoryError")';
      const limited = await execOk({ argv: ['python3', '-c', grab] });
      expect(limited.stdout).toBe('MemoryError\n');
      const raised = await execOk({ argv: ['python3', '-c', grab], rlimits: { as_bytes: 4 * 1024 ** 3 } });
      expect(raised.stdout).toBe('allocated\n');
    },
  );

  it('skips the default address-space limit for a Node child, but applies an explicit as_bytes', async () => {
    const fine = await execOk({ argv: [process.execPath, '-e', 'console.log("node runs")'] });
    expect(fine).toMatchObject({ exit_code: 0, stdout: 'node runs\n' });
    const capped = await execOk({
      argv: ['node', '-e', 'console.log(1)'],
      rlimits: { as_bytes: 512 * 1024 * 1024 },
    });
    expect(capped.exit_code).not.toBe(0);
    expect(capped.stdout).toBe('');
  });

  it('runs npm (a `#!/usr/bin/env node` script) without the default address-space limit', async () => {
    const npm = await execOk({ argv: ['npm', '--version'] });
    expect(npm).toMatchObject({ exit_code: 0, signal: null });
    expect(npm.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('rejects a non-boolean stream with an invalid-arguments result naming the field', async () => {
    expect(await run({ argv: ['true'], stream: 'yes' })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: 'Invalid arguments of `Exec`: `stream` must be a boolean, got "yes" (string)',
      },
    });
    const bad = [
      [
        { argv: [] },
        'Invalid arguments of `Exec`: `argv` must be a non-empty array of strings, got [] (array)',
      ],
      [{ argv: ['ls', 3] }, 'Invalid arguments of `Exec`: `argv[1]` must be a string, got 3 (number)'],
      [
        { argv: ['ls'], timeout_s: 601 },
        'Invalid arguments of `Exec`: `timeout_s` must be a number of seconds in (0, 600], got 601 (number)',
      ],
      [
        { argv: ['ls'], max_output_bytes: 1023 },
        'Invalid arguments of `Exec`: `max_output_bytes` must be an integer between 1024 and 4194304, got 1023 (number)',
      ],
      [
        { argv: ['ls'], rlimits: { cpu_s: -1 } },
        'Invalid arguments of `Exec`: `rlimits.cpu_s` must be a positive integer, got -1 (number)',
      ],
      [
        { argv: ['ls'], timeout: 5 },
        'Invalid arguments of `Exec`: `timeout` is not a known field, got 5 (number)',
      ],
    ] as const;
    for (const [args, message] of bad) {
      expect(await run(args)).toEqual({ ok: false, error: { code: 'INVALID_ARGUMENTS', message } });
    }
  });

  it('reports a missing executable as a SPAWN_FAILED error result', async () => {
    const result = await run({ argv: ['/nonexistent/sluice-no-such-binary'], stream: true }, () => {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('SPAWN_FAILED');
  });

  it('answers a spawn failure of any kind at once, whatever timeout_s says', async () => {
    for (const [args, errno] of [
      [{ argv: ['true'], cwd: '/etc/passwd' }, 'ENOTDIR'],
      [{ argv: ['true', 'x'.repeat(3_000_000)] }, 'E2BIG'],
    ] as const) {
      const started = performance.now();
      const result = await run({ ...args, timeout_s: 600 });
      expect(result).toMatchObject({ ok: false, error: { code: 'SPAWN_FAILED' } });
      expect(!result.ok && result.error.message).toContain(errno);
      expect(performance.now() - started).toBeLessThan(10_000); // far below timeout_s: no wait for it
    }
  });

  it('refuses what the OS cannot pass as INVALID_ARGUMENTS, naming the field', async () => {
    expect(await run({ argv: ['echo', 'a\0b'] })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message:
          'Invalid arguments of `Exec`: `argv[1]` must be a string without NUL bytes, got "a\\u0000b" (string)',
      },
    });
    expect(await run({ argv: ['env'], env: { 'A=B': 'c' } })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message:
          'Invalid arguments of `Exec`: `env` must be an object whose names are non-empty and hold no `=` or NUL, got {"A=B":"c"} (object)',
      },
    });
  });

  it('honours the context signal: abort kills the group, then CANCELLED with the partial result', async () => {
    const controller = new AbortController();
    let pgid = 0;
    const started = performance.now();
    const result = await run(
      { argv: ['sh', '-c', 'echo $$; sleep 30 & wait'], stream: true, timeout_s: 60 },
      (chunk) => {
        pgid = Number(String(chunk.content).trim());
        controller.abort();
      },
      controller.signal,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(pgid).toBeGreaterThan(0);
    // The answer comes after the kill sequence: the group is already gone.
    expect(groupAlive(pgid)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('rejects the handler with a CancelledError that keeps the partial result', async () => {
    const controller = new AbortController();
    const tool = registry.get('Exec');
    const args = execToolArgsSchema.parse({
      argv: ['sh', '-c', 'echo partial; exec sleep 30'],
      stream: true,
    });
    const error = await Promise.resolve(
      tool?.handler(args, {
        pid: 1,
        kernel: undefined,
        onChunk: () => controller.abort(new Error('the user pressed stop')),
        signal: controller.signal,
      }),
    ).catch((thrown: unknown) => thrown);
    expect(isCancelledError(error)).toBe(true);
    expect((error as CancelledError<ExecToolResult>).result).toMatchObject({
      stdout: 'partial\n',
      exitCode: null,
      signal: 'SIGTERM',
    });
    expect((error as CancelledError).info?.reason).toEqual(new Error('the user pressed stop'));
  });

  it.skipIf(!needs('python3'))(
    'stops reading while ctx.demand is paused: the child blocks on its pipe, then finishes',
    async () => {
      const valve = new Valve();
      let lines = 0;
      let pid = 0;
      const done = dispatchToolCall({
        msg: {
          op: 'tool_call',
          id: 1,
          name: 'Exec',
          args: {
            argv: ['sh', '-c', `echo $$; exec python3 ${fixture('exec-counter.py')}`],
            stream: true,
            timeout_s: 60,
          },
        },
        pid: 1,
        registry,
        demand: valve,
        onChunk: (chunk) => {
          if (lines === 0) pid = Number(String(chunk.content).trim());
          lines += 1;
          if (lines === 1000) valve.pause();
        },
      });
      expect(await pollUntil(() => lines >= 1000, 20_000)).toBe(true);
      // Paused: the child fills the pipe, then blocks; its written bytes stop growing.
      let before = -1;
      const settled = await pollUntil(() => {
        const now = writtenBytes(pid);
        const still = now === before;
        before = now;
        return still;
      }, 20_000);
      expect(settled).toBe(true);
      const seen = lines;
      expect(writtenBytes(pid)).toBeLessThan(4 * 1024 * 1024); // the pipe plus one read, not a run away
      valve.resume();
      expect(await pollUntil(() => lines > seen + 100_000, 20_000)).toBe(true);
      process.kill(-pid, 'SIGTERM');
      expect(await done).toMatchObject({ ok: true, value: { signal: 'SIGTERM' } });
    },
  );
});
