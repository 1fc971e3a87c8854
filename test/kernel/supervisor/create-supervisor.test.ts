import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isSluiceError } from '../../../src/core/errors/sluice-error.js';
import { createSupervisor } from '../../../src/kernel/supervisor/create-supervisor.js';
import type { ToolChunk } from '../../../src/kernel/tools/tool.js';
import { groupAlive, groupGone } from '../../support/processes.js';
import { needs } from '../../support/system-tools.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
const pythonRunner = ['python3', fixture('runner-exec.py')];
const nodeRunner = [process.execPath, fixture('runner-chunks.mjs')];
const execArgs = (args: object, extra: Record<string, string> = {}) => ({
  env: { RUNNER_EXEC_ARGS: JSON.stringify(args), ...extra },
});

describe.skipIf(!needs('linux'))('createSupervisor', () => {
  it.skipIf(!needs('python3'))(
    'streaming Exec output reaches the wait() callback in real time, before the child exits',
    async () => {
      const flag = join(mkdtempSync(join(tmpdir(), 'sluice-supervisor-')), 'go');
      // The Exec child prints its pid, then cannot exit until the test creates `flag` — which the
      // test does only from inside the wait() callback, on receiving that first line.
      const script = 'echo $$; while [ ! -e "$1" ]; do sleep 0.02; done; echo second';
      const supervisor = createSupervisor();
      const handle = supervisor.spawn(
        pythonRunner,
        execArgs({ argv: ['sh', '-c', script, 'sh', flag], stream: true }),
      );
      const received: ToolChunk[] = [];
      let childAliveAtFirstLine: boolean | undefined;
      const info = await handle.wait({
        timeoutMs: 30_000,
        onChunk: (chunk) => {
          received.push(chunk);
          if (chunk.kind === 'stdout' && childAliveAtFirstLine === undefined) {
            childAliveAtFirstLine = groupAlive(Number(String(chunk.content).trim()));
            writeFileSync(flag, '');
          }
        },
      });
      expect(childAliveAtFirstLine).toBe(true);
      expect(info).toMatchObject({
        pid: handle.pid,
        exitCode: 0,
        signal: null,
        timedOut: false,
        malformed: [],
      });
      expect(info.chunks).toEqual(received);
      expect(info.chunks.map((chunk) => [chunk.kind, chunk.content])).toEqual([
        ['token', 'runner started'],
        ['stdout', expect.stringMatching(/^\d+\n$/)],
        ['stdout', 'second\n'],
        ['token', 'tool done'],
      ]);
      expect(info.chunks[1]?.metadata).toEqual({ tool: 'Exec' });
      const stdout = `${info.chunks[1]?.content}second\n`;
      expect(info.result).toMatchObject({
        op: 'tool_result',
        id: 7,
        result: { ok: true, value: { exit_code: 0, stdout, stderr: '', truncated: false, timed_out: false } },
      });
      expect(info.toolCalls).toEqual([
        { id: 7, name: 'Exec', result: (info.result as { result: unknown }).result },
      ]);
    },
  );

  it.skipIf(!needs('python3'))(
    'a Python runner drives a streaming Exec call end to end; malformed lines are reported, not fatal',
    async () => {
      const malformed: unknown[] = [];
      const supervisor = createSupervisor({ onMalformed: (entry) => malformed.push(entry) });
      const argv = ['python3', '-c', 'import sys\nprint("a")\nsys.stderr.write("b\\n")\nprint("c")'];
      const handle = supervisor.spawn(pythonRunner, execArgs({ argv, stream: true }, { RUNNER_NOISE: '1' }));
      const info = await handle.wait({ timeoutMs: 30_000 });
      expect(info.exitCode).toBe(0);
      expect(info.malformed).toEqual([
        { line: 'this is not json', problem: expect.stringMatching(/^Not JSON: /) },
        {
          line: '{"op": "chunk", "kind": 42}',
          problem: 'Invalid message: `kind` must be a string, got 42 (number)',
        },
      ]);
      expect(malformed).toEqual(info.malformed);
      expect(info.stderr).toBe('runner diagnostics\n');
      const tool = info.chunks.filter((chunk) => chunk.metadata?.tool === 'Exec');
      expect(tool.filter((chunk) => chunk.kind === 'stdout').map((chunk) => chunk.content)).toEqual([
        'a\n',
        'c\n',
      ]);
      expect(tool.filter((chunk) => chunk.kind === 'stderr').map((chunk) => chunk.content)).toEqual(['b\n']);
      expect(info.result).toMatchObject({ result: { ok: true, value: { stdout: 'a\nc\n', stderr: 'b\n' } } });
    },
  );

  it.skipIf(!needs('python3'))(
    'holds the timeoutMs deadline while a tool call is running: kills the runner and the tool process',
    async () => {
      const supervisor = createSupervisor();
      const handle = supervisor.spawn(
        pythonRunner,
        execArgs({ argv: ['sh', '-c', 'echo $$; exec sleep 60'], stream: true, timeout_s: 120 }),
      );
      // The deadline starts once the tool runs (its first line), so a slow start on a loaded
      // machine cannot use it up before the call it is meant to hold.
      const first = await firstValueFrom(handle.chunks$.pipe(filter((chunk) => chunk.kind === 'stdout')));
      const toolPid = Number(String(first.content).trim());
      const info = await handle.wait({ timeoutMs: 1500 });
      expect(info).toMatchObject({ timedOut: true, exitCode: null, signal: null });
      expect(info.durationMs).toBeGreaterThanOrEqual(1400);
      expect(info.durationMs).toBeLessThan(20_000);
      const runnerPid = Number(info.chunks[0]?.metadata?.pid);
      expect(runnerPid).toBeGreaterThan(0);
      expect(toolPid).toBeGreaterThan(0);
      expect(info.chunks.map((chunk) => chunk.kind)).toEqual(['token', 'stdout']);
      expect(info.toolCalls).toEqual([{ id: 7, name: 'Exec', result: undefined }]);
      expect(await groupGone(runnerPid)).toBe(true);
      expect(await groupGone(toolPid)).toBe(true);
    },
  );

  it('swallows a throwing onChunk; every chunk is still recorded', async () => {
    const handle = createSupervisor().spawn(nodeRunner, { env: { RUNNER_CHUNKS: '3' } });
    let calls = 0;
    const info = await handle.wait({
      onChunk: () => {
        calls += 1;
        throw new Error('UI bug');
      },
    });
    expect(calls).toBe(3);
    expect(info.exitCode).toBe(0);
    expect(info.chunks.map((chunk) => chunk.content)).toEqual(['t0', 't1', 't2']);
    expect(info.result).toEqual({ sent: 3 });
  });

  it('a run with no chunks has chunks empty, and reports the exit code', async () => {
    const handle = createSupervisor().spawn(nodeRunner, { env: { RUNNER_CHUNKS: '0', RUNNER_EXIT: '4' } });
    const info = await handle.wait();
    expect(info).toMatchObject({
      exitCode: 4,
      chunks: [],
      toolCalls: [],
      malformed: [],
      result: { sent: 0 },
    });
  });

  it('offers the same chunks as an Observable (live and replayed to a late subscriber)', async () => {
    const handle = createSupervisor().spawn(nodeRunner, { env: { RUNNER_CHUNKS: '5' } });
    const live = firstValueFrom(handle.chunks$.pipe(toArray()));
    const info = await handle.wait();
    expect(await live).toEqual(info.chunks);
    expect(await firstValueFrom(handle.observe().pipe(toArray()))).toEqual(info.chunks);
    expect(info.chunks).toHaveLength(5);
  });

  it('runs an in-process runner over the same protocol, with a streaming Exec call', async () => {
    const supervisor = createSupervisor();
    const handle = supervisor.spawn(async (channel) => {
      channel.send({ op: 'chunk', kind: 'token', content: 'go' });
      channel.sendLine('garbage');
      const result = await channel.callTool('Exec', {
        argv: ['sh', '-c', 'echo one; echo two'],
        stream: true,
      });
      const invalid = await channel.callTool('Exec', { argv: ['true'], stream: 'yes' });
      channel.send({ op: 'result', value: { result, invalid } });
      return 2;
    });
    const info = await handle.wait({ timeoutMs: 30_000 });
    expect(info.exitCode).toBe(2);
    expect(info.chunks.map((chunk) => chunk.content)).toEqual(['go', 'one\n', 'two\n']);
    expect(info.malformed).toHaveLength(1);
    expect(info.result).toMatchObject({
      result: { ok: true, value: { exit_code: 0, stdout: 'one\ntwo\n' } },
      invalid: { ok: false, error: { code: 'INVALID_ARGUMENTS' } },
    });
    expect(info.toolCalls.map((call) => call.result?.ok)).toEqual([true, false]);
  });

  it.skipIf(!needs('python3'))('reports an overlong line as malformed and goes on', async () => {
    const script = 'import json\nprint("x" * 300)\nprint(json.dumps({"op": "result", "value": 1}))';
    const handle = createSupervisor({ maxMessageBytes: 64 }).spawn(['python3', '-c', script]);
    const info = await handle.wait();
    expect(info.malformed).toEqual([
      { line: `${'x'.repeat(197)}...`, problem: 'Line is longer than the largest message accepted' },
    ]);
    expect(info.result).toBe(1);
  });

  it.skipIf(!needs('python3'))('kill() stops the runner group now', async () => {
    const handle = createSupervisor().spawn([
      'python3',
      '-c',
      'import json, os, time\nprint(json.dumps({"op": "chunk", "kind": "pid", "content": os.getpid()}), flush=True)\ntime.sleep(60)',
    ]);
    const pid = Number(await firstValueFrom(handle.chunks$).then((chunk) => chunk.content));
    handle.kill();
    const info = await handle.wait();
    expect(info).toMatchObject({ exitCode: null, timedOut: false, chunks: [{ kind: 'pid', content: pid }] });
    expect(await groupGone(pid)).toBe(true);
  });

  it.skipIf(!needs('python3'))(
    'reports a runner killed by a signal: exitCode null, signal SIGKILL, its chunks kept',
    async () => {
      const script =
        'import json, os, signal\nprint(json.dumps({"op": "chunk", "kind": "token", "content": "before"}), flush=True)\nos.kill(os.getpid(), signal.SIGKILL)';
      const handle = createSupervisor().spawn(['python3', '-c', script]);
      const info = await handle.wait({ timeoutMs: 30_000 });
      expect(info).toMatchObject({
        exitCode: null,
        signal: 'SIGKILL',
        timedOut: false,
        chunks: [{ op: 'chunk', kind: 'token', content: 'before' }],
        malformed: [],
      });
    },
  );

  it('rejects wait() with a SpawnError when the runner cannot start', async () => {
    const handle = createSupervisor().spawn(['/nonexistent/sluice-runner']);
    const error = await handle.wait().catch((thrown: unknown) => thrown);
    expect(isSluiceError(error, 'SPAWN_FAILED')).toBe(true);
  });

  it('validates options before anything spawns', () => {
    expect(() => createSupervisor({ maxMessageBytes: -1 })).toThrow(
      new TypeError('Expected the `maxMessageBytes` option to be a positive integer, got `-1` (number)'),
    );
    expect(() => createSupervisor({ onMalformed: 'x' as never })).toThrow(
      'Expected the `onMalformed` option to be a function, got `x` (string)',
    );
    const supervisor = createSupervisor();
    expect(() => supervisor.spawn([])).toThrow(
      'Expected the `runner` argument to be a non-empty array of strings or a function, got `[]` (array)',
    );
    expect(() => supervisor.spawn(['true'], { cwd: 3 as never })).toThrow(
      'Expected the `cwd` option to be a string, got `3` (number)',
    );
    const handle = supervisor.spawn(async () => 0);
    expect(() => handle.wait({ timeoutMs: -1 })).toThrow(
      'Expected the `timeoutMs` option to be a non-negative integer, got `-1` (number)',
    );
    expect(() => handle.wait({ onChunk: 1 as never })).toThrow(
      'Expected the `onChunk` option to be a function',
    );
    expect(() => handle.wait({ timeout: 5 } as never)).toThrow(
      'Unknown `timeout` option (known options: onChunk, timeoutMs)',
    );
    expect(() => createSupervisor({ maxLines: 5 } as never)).toThrow(/^Unknown `maxLines` option/);
  });
});
