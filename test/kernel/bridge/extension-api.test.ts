import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../../src/core/chunk.js';
import type { Bridge } from '../../../src/kernel/bridge/bridge.js';
import { connectExtension } from '../../../src/kernel/bridge/connect-extension.js';
import { createExtensionApi } from '../../../src/kernel/bridge/extension-api.js';
import { createHost } from '../../../src/kernel/host/create-host.js';
import type { JsonValue } from '../../../src/kernel/protocol/json-value.js';

const lines = (texts: readonly string[]) =>
  from(
    texts.map(
      (content, sequence): ChunkEvent<JsonValue> => ({ sequence, kind: 'stdout', content, isFinal: false }),
    ),
  );

describe('createExtensionApi', () => {
  it('builds the payloads of docs/protocol.md', () => {
    const calls: unknown[] = [];
    const bridge = {
      call: (kind: string, payload: unknown) => {
        calls.push(['call', kind, payload]);
        return Promise.resolve(null);
      },
      stream: (kind: string, payload: unknown) => {
        calls.push(['stream', kind, payload]);
        return {};
      },
      cancelStream: (callId: string) => calls.push(['cancel', callId]),
    } as unknown as Bridge;
    const api = createExtensionApi(bridge);
    void api.exec('ls');
    void api.exec('ls', ['-la']);
    api.exec('tail', { stream: true, stallTimeoutMs: 0 });
    api.exec('make', ['build'], { stream: true, bufferSize: 32 });
    api.http('http://127.0.0.1/x', { stream: true, lines: true });
    void api.http('http://127.0.0.1/y');
    api.cancelStream('hc-3');
    expect(calls).toEqual([
      ['call', 'exec', { cmd: 'ls' }],
      ['call', 'exec', { cmd: 'ls', args: ['-la'] }],
      ['stream', 'exec', { stream: true, stallTimeoutMs: 0, cmd: 'tail' }],
      ['stream', 'exec', { stream: true, bufferSize: 32, cmd: 'make', args: ['build'] }],
      ['stream', 'http', { stream: true, lines: true, url: 'http://127.0.0.1/x' }],
      ['call', 'http', { url: 'http://127.0.0.1/y' }],
      ['cancel', 'hc-3'],
    ]);
  });

  it('end to end on an in-process host: for await over a stream, await a plain call, ids unique per extension', async () => {
    const host = createHost({
      logger: { warn: () => {} },
      producers: { exec: (payload) => lines([`${payload.cmd} 1\n`, `${payload.cmd} 2\n`]) },
      handlers: { exec: (payload) => ({ stdout: `ran ${payload.cmd}` }) },
    });
    const a = connectExtension(host, 'ext-a');
    const b = connectExtension(host, 'ext-b');
    const stream = await a.api.exec('make', ['build'], { stream: true });
    expect(stream.callId).toBe('ext-a:hc-1');
    const got: unknown[] = [];
    for await (const chunk of stream) got.push(chunk);
    expect(got).toEqual(['make 1\n', 'make 2\n']);
    expect(await b.api.exec('ls')).toEqual({ stdout: 'ran ls' });
    const events = await lastValueFrom(b.api.exec('cat', { stream: true }).pipe(toArray()));
    expect(events.map((event) => [event.sequence, event.content, event.isFinal])).toEqual([
      [0, 'cat 1\n', false],
      [1, 'cat 2\n', false],
      [2, null, true],
    ]);
    await expect(a.api.exec('')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(host.activeStreams()).toEqual([]);
    expect(a.bridge.pending()).toEqual([]);
  });
});

describe('names on the wire (docs/protocol.md)', () => {
  it('the payload reaches the host in the wire names; results and chunks come back in TypeScript names', async () => {
    const payloads: unknown[] = [];
    const host = createHost({
      logger: { warn: () => {} },
      producers: {
        exec: (payload) => {
          payloads.push(payload);
          return from([
            { sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false },
            { sequence: 1, kind: 'exit', content: { exit_code: 0, duration_ms: 5 }, isFinal: true },
          ] satisfies ChunkEvent<JsonValue>[]);
        },
      },
      handlers: {
        exec: (payload) => {
          payloads.push(payload);
          return { stdout: '', exit_code: 3, timed_out: false, duration_ms: 7 };
        },
      },
    });
    const { api } = connectExtension(host, 'ext-a');
    const result = await api.exec('ls', { timeoutMs: 500, rlimits: { cpuSeconds: 2, openFiles: 64 } });
    expect(result).toEqual({ stdout: '', exitCode: 3, timedOut: false, durationMs: 7 });
    const chunks: unknown[] = [];
    for await (const chunk of api.exec('ls', { stream: true, bufferSize: 4, stallTimeoutMs: 0 }))
      chunks.push(chunk);
    expect(chunks).toEqual(['a\n', { exitCode: 0, durationMs: 5 }]);
    expect(payloads).toEqual([
      { cmd: 'ls', timeout_ms: 500, rlimits: { cpu_s: 2, nofile: 64 } },
      { cmd: 'ls', stream: true, buffer_size: 4, stall_timeout_ms: 0 },
    ]);
  });
});
