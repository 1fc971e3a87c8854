import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ExtensionApi } from '../../src/kernel/bridge/extension-api.js';
import type { JsonValue } from '../../src/kernel/protocol/json-value.js';
import { createVirtualHost, fakeExec } from '../../src/testing/index.js';

/** Extension code under test: collects a streaming exec, as an extension author writes it. */
async function collect(
  api: ExtensionApi,
  cmd: string,
  options: { bufferSize?: number } = {},
): Promise<JsonValue[]> {
  const lines: JsonValue[] = [];
  for await (const line of api.exec(cmd, { stream: true, ...options })) lines.push(line);
  return lines;
}

describe('createVirtualHost', () => {
  it('reproduces the two-concurrent-streams table of docs/protocol.md, tick() by tick()', () => {
    const vhost = createVirtualHost({ handlers: { tool: (payload) => ({ n: payload.n as number }) } });
    const a = vhost.extension('ext-a', {
      callIds: [...Array.from({ length: 14 }, (_, n) => `other-${n}`), 'hc-42'],
    });
    const b = vhost.extension('ext-b', { callIds: ['hc-99'] });
    for (let n = 0; n < 14; n += 1) void a.bridge.call('tool', { n });
    vhost.script('hc-42', [
      { at: 10, chunk: 'a1' },
      { at: 30, chunk: 'a2' },
      { at: 50, chunk: 'a3', final: true },
    ]);
    vhost.script('hc-99', [
      { at: 20, chunk: 'b1' },
      { at: 40, chunk: 'b2', final: true },
    ]);
    const seen: string[] = [];
    a.api.exec('make', { stream: true }).subscribe((event) => seen.push(`hc-42:${event.content}`));
    b.api
      .http('http://127.0.0.1:8080/x', { stream: true })
      .subscribe((event) => seen.push(`hc-99:${event.content}`));
    expect(vhost.runUntilIdle()).toBe(14);
    vhost.advance(50);
    const table: (string | number | boolean)[][] = [];
    while (vhost.tick() === 1) {
      const row = vhost.delivered.at(-1) as {
        seq: number;
        callId: string;
        sequence: number;
        isFinal: boolean;
      };
      table.push([row.seq, row.callId, row.sequence, row.isFinal]);
      expect(seen.at(-1)).toBe(`${row.callId}:${(row as { chunk?: JsonValue }).chunk}`);
    }
    // Global seq   call_id   sequence   is_final
    expect(table).toEqual([
      [14, 'hc-42', 0, false],
      [15, 'hc-99', 0, false],
      [16, 'hc-42', 1, false],
      [17, 'hc-99', 1, true], // hc-99 done
      [18, 'hc-42', 2, true], // hc-42 done
    ]);
    expect(vhost.host.activeStreams()).toEqual([]);
  });

  it('happy path: for-await extension code gets every chunk, in order', async () => {
    const vhost = createVirtualHost();
    const { api } = vhost.extension('ext-a', { callIds: ['hc-42'] });
    vhost.script('hc-42', [
      { at: 10, chunk: 'line 1\n' },
      { at: 20, chunk: 'line 2\n' },
      { at: 30, chunk: 'done\n', final: true },
    ]);
    const lines = collect(api, 'make');
    await vhost.play();
    expect(await lines).toEqual(['line 1\n', 'line 2\n', 'done\n']);
    expect(vhost.delivered.map((row) => [row.seq, 'sequence' in row && row.sequence])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it('error mid-stream: next() rejects with the code after the chunks before it', async () => {
    const vhost = createVirtualHost();
    const { api } = vhost.extension('ext-a');
    vhost.script('ext-a:hc-1', [
      { at: 5, chunk: 'partial' },
      { at: 9, error: { code: 'EXEC_FAILED', message: 'exit code 1' } },
    ]);
    const received: JsonValue[] = [];
    const run = (async () => {
      for await (const line of api.exec('make', { stream: true })) received.push(line);
    })();
    const failure = run.catch((error: unknown) => error);
    await vhost.play();
    expect(received).toEqual(['partial']);
    expect(await failure).toMatchObject({ code: 'EXEC_FAILED', message: 'exit code 1' });
  });

  it('cancel: breaking out of for-await stops the producer and ends with one null final chunk', async () => {
    const vhost = createVirtualHost();
    const { api } = vhost.extension('ext-a', { callIds: ['hc-42'] });
    vhost.script('hc-42', [
      { at: 10, chunk: 'a' },
      { at: 20, chunk: 'b' },
      { at: 30, chunk: 'c', final: true },
    ]);
    const run = (async () => {
      for await (const line of api.exec('tail', { stream: true })) if (line === 'a') break;
    })();
    await vhost.play();
    await run;
    expect(vhost.delivered).toEqual([
      { seq: 0, extensionId: 'ext-a', callId: 'hc-42', sequence: 0, chunk: 'a', isFinal: false },
      { seq: 1, extensionId: 'ext-a', callId: 'hc-42', sequence: 1, chunk: null, isFinal: true },
    ]);
    expect(vhost.traces['hc-42']).toEqual(['subscribe@0', 'unsubscribe@10']);
  });

  it('stall: a consumer that stops pulling is cancelled exactly stall_timeout_ms after the channel filled', async () => {
    const vhost = createVirtualHost();
    const { api } = vhost.extension('ext-a', { callIds: ['hc-42'] });
    vhost.script(
      'hc-42',
      Array.from({ length: 8 }, (_, n) => ({ at: (n + 1) * 10, chunk: `line ${n}` })),
    );
    const stream = api.exec('yes', { stream: true, bufferSize: 2, stallTimeoutMs: 1000 });
    const first = stream.next();
    vhost.advance(10);
    vhost.tick();
    expect(await first).toEqual({ value: 'line 0', done: false });
    // The extension stops calling next(). Its stream keeps a window of two chunks asked for, so
    // lines 1 and 2 move to the scheduler queue by 30; nobody ticks, so they stay undelivered and
    // fill the capacity of 2. Then nothing moves.
    vhost.advance(1019);
    expect(vhost.logs).toEqual([]);
    vhost.advance(1);
    expect(vhost.logs).toEqual(['Stream stalled: JS consumer did not pull for 1s']);
    expect(vhost.traces['hc-42']).toEqual(['subscribe@0', 'pause@30', 'unsubscribe@1030']);
    vhost.runUntilIdle();
    expect(vhost.delivered.at(-1)).toMatchObject({
      callId: 'hc-42',
      sequence: 3, // after lines 0–2, which the stream had asked for
      chunk: null,
      isFinal: true,
    });
  });

  it('unload: unloading an extension cancels its streams only', () => {
    const vhost = createVirtualHost({ driver: 'clock' });
    const a = vhost.extension('ext-a', { callIds: ['hc-1'] });
    const b = vhost.extension('ext-b', { callIds: ['hc-2'] });
    for (const callId of ['hc-1', 'hc-2']) {
      vhost.script(callId, [
        { at: 10, chunk: `${callId} a` },
        { at: 30, chunk: `${callId} b`, final: true },
      ]);
    }
    const seen: JsonValue[] = [];
    a.api.exec('watch', { stream: true }).subscribe((event) => seen.push(event.content));
    b.api.exec('watch', { stream: true }).subscribe((event) => seen.push(event.content));
    vhost.advance(20);
    vhost.host.unloadExtension('ext-a');
    vhost.advance(20);
    expect(seen).toEqual(['hc-1 a', 'hc-2 a', null, 'hc-2 b']);
    expect(vhost.traces).toEqual({ 'hc-1': ['subscribe@0', 'unsubscribe@20'], 'hc-2': ['subscribe@0'] });
  });

  it('runs streaming exec calls through the real exec source on a fake process', async () => {
    const vhost = createVirtualHost({
      exec: { stdout: '-a-b--|', stderr: '--e|', values: { e: 'warn\n' }, exit: { code: 2 } },
    });
    const { api } = vhost.extension('ext-a');
    const lines: JsonValue[] = [];
    const run = (async () => {
      for await (const line of api.exec('make', ['build'], { stream: true })) lines.push(line);
    })().catch((error: unknown) => error);
    await vhost.play();
    expect(lines).toEqual(['a\n', { stderr: 'warn\n' }, 'b\n']);
    expect(await run).toMatchObject({
      code: 'EXEC_FAILED',
      message: 'Command failed with exit code 2: make build',
    });
    expect(vhost.fake?.spawns.map((request) => [request.file, request.args])).toEqual([['make', ['build']]]);
  });

  it('cancelling a fake-process stream kills its process group at that virtual time', () => {
    const clock = new VirtualTimeScheduler();
    const fake = fakeExec({ stdout: '-a-b-c-d-e', exit: 'hang' }, { scheduler: clock });
    const vhost = createVirtualHost({ clock, exec: fake, driver: 'clock' });
    const { api } = vhost.extension('ext-a');
    const stream = api.exec('tail', ['-f', 'log'], { stream: true });
    const seen: JsonValue[] = [];
    stream.subscribe((event) => seen.push(event.content));
    vhost.advance(4);
    api.cancelStream(stream.callId);
    vhost.advance(10);
    expect(seen).toEqual(['a\n', 'b\n', null]);
    expect(fake.kills).toEqual([{ at: 4, signal: 'SIGTERM' }]);
    expect(fake.running).toBe(0);
  });

  it('validates its options, naming the field', () => {
    expect(() => createVirtualHost({ driver: 'auto' as never })).toThrow(
      "Expected the `driver` option to be 'manual' or 'clock', got `auto` (string)",
    );
    expect(() => createVirtualHost({ exec: { pipeCapacity: -1 } })).toThrow('`pipeCapacity` option');
    expect(() => createVirtualHost().advance(-1)).toThrow(
      'Expected the `ms` argument to be a non-negative integer',
    );
  });
});
