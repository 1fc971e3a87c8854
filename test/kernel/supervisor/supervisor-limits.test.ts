import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isSluiceError } from '../../../src/core/errors/sluice-error.js';
import { createSupervisor } from '../../../src/kernel/supervisor/create-supervisor.js';
import type { ToolChunk } from '../../../src/kernel/tools/tool.js';
import { macrotask } from '../../support/macrotask.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));

describe('supervisor limits: memory bounded by the caps, not by what a runner writes', () => {
  it('keeps the first maxChunks chunks (default 10 000), counts the rest, and streams every one', async () => {
    const handle = createSupervisor().spawn([process.execPath, fixture('runner-chunks.mjs')], {
      env: { RUNNER_CHUNKS: '200000' },
    });
    let streamed = 0;
    let last: ToolChunk | undefined;
    const info = await handle.wait({
      onChunk: (chunk) => {
        streamed += 1;
        last = chunk;
      },
    });
    expect(info.exitCode).toBe(0);
    expect(info.chunks).toHaveLength(10_000);
    expect(info.chunks.at(-1)?.content).toBe('t9999');
    expect(info.chunksDropped).toBe(190_000);
    expect(streamed).toBe(200_000);
    expect(last?.content).toBe('t199999');
    expect(info.result).toEqual({ sent: 200_000 });
  });

  it('keeps the first maxMalformed malformed lines (default 100), reports every one', async () => {
    let reported = 0;
    const onMalformed = () => {
      reported += 1;
    };
    const handle = createSupervisor({ onMalformed }).spawn(async (channel) => {
      for (let i = 0; i < 500; i++) channel.sendLine(`garbage ${i}`);
      return 0;
    });
    const info = await handle.wait();
    expect(info.malformed).toHaveLength(100);
    expect(info.malformed.at(-1)?.line).toBe('garbage 99');
    expect(info.malformedDropped).toBe(400);
    expect(reported).toBe(500);
  });

  it('honours smaller caps given as options, and checks them', async () => {
    const supervisor = createSupervisor({ maxChunks: 3, maxMalformed: 1 });
    const info = await supervisor
      .spawn(async (channel) => {
        for (let i = 0; i < 5; i++) channel.send({ op: 'chunk', kind: 'token', content: i });
        channel.sendLine('x');
        channel.sendLine('y');
      })
      .wait();
    expect(info.chunks.map((chunk) => chunk.content)).toEqual([0, 1, 2]);
    expect(info).toMatchObject({ chunksDropped: 2, malformedDropped: 1 });
    expect(() => createSupervisor({ maxChunks: 0 })).toThrow(
      'Expected the `maxChunks` option to be a positive integer, got `0` (number)',
    );
    expect(() => createSupervisor({ maxConcurrentToolCalls: 1.5 })).toThrow(
      'Expected the `maxConcurrentToolCalls` option to be a positive integer, got `1.5` (number)',
    );
  });

  it('runs at most maxConcurrentToolCalls (default 8) tool calls of a runner at once, all answered, no warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const calls = 40;
      const handle = createSupervisor().spawn(async (channel) => {
        const results = await Promise.all(
          Array.from({ length: calls }, () =>
            channel.callTool('Exec', { argv: ['sh', '-c', 'echo start; sleep 0.1; echo end'], stream: true }),
          ),
        );
        channel.send({ op: 'result', value: results.filter((result) => result.ok).length });
      });
      const info = await handle.wait({ timeoutMs: 60_000 });
      expect(info.result).toBe(calls);
      // How many ran at once, read off the order of their own lines.
      let running = 0;
      let most = 0;
      for (const chunk of info.chunks) {
        running += chunk.content === 'start\n' ? 1 : -1;
        most = Math.max(most, running);
      }
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(8);
      await macrotask();
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('supervisor: a runner or a tool that cannot start never hangs', () => {
  it('rejects wait() at once, not at its timeout, when the runner cannot spawn (its cwd is a file)', async () => {
    const started = performance.now();
    const error = await createSupervisor()
      .spawn(['true'], { cwd: '/etc/passwd' })
      .wait({ timeoutMs: 60_000 })
      .catch((thrown: unknown) => thrown);
    expect(isSluiceError(error, 'SPAWN_FAILED')).toBe(true);
    expect((error as Error).message).toContain('ENOTDIR');
    expect(performance.now() - started).toBeLessThan(10_000); // far below wait()'s 60 s: no hang
  });

  it('answers a tool call whose command cannot spawn, so the runner goes on', async () => {
    const handle = createSupervisor().spawn(async (channel) => {
      const answer = await channel.callTool('Exec', { argv: ['true'], cwd: '/etc/passwd' });
      channel.send({ op: 'result', value: answer });
    });
    const started = performance.now();
    const info = await handle.wait({ timeoutMs: 60_000 });
    expect(info.result).toMatchObject({ ok: false, error: { code: 'SPAWN_FAILED' } });
    expect(performance.now() - started).toBeLessThan(10_000); // far below wait()'s 60 s: no hang
  });
});
