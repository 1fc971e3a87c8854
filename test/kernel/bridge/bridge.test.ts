import { describe, expect, it } from 'vitest';
import { isSluiceError } from '../../../src/core/errors/sluice-error.js';
import { createBridge, inProcessDelivery } from '../../../src/kernel/bridge/bridge.js';
import {
  failure,
  type HostcallOutcome,
  streamChunk,
  success,
} from '../../../src/kernel/protocol/hostcall-outcome.js';
import type { HostcallRequest } from '../../../src/kernel/protocol/hostcall-request.js';

function fakeTransport() {
  const sent: HostcallRequest[] = [];
  const log: string[] = [];
  const bridge = createBridge({
    send: (request) => sent.push(request),
    pull: (callId, count) => log.push(`pull ${callId} ${count}`),
    cancelStream: (callId) => log.push(`cancel ${callId}`),
  });
  return { bridge, sent, log };
}

describe('createBridge', () => {
  it('sends calls with generated ids and settles them from Success / Error outcomes', async () => {
    const { bridge, sent } = fakeTransport();
    const first = bridge.call('tool', { name: 'read' });
    const second = bridge.call('exec', { cmd: 'false' });
    expect(sent).toEqual([
      { callId: 'hc-1', kind: 'tool', payload: { name: 'read' } },
      { callId: 'hc-2', kind: 'exec', payload: { cmd: 'false' } },
    ]);
    expect(bridge.pending()).toEqual(['hc-1', 'hc-2']);
    bridge.completeHostcall('hc-1', success({ text: 'hi' }));
    bridge.completeHostcall('hc-2', failure('EXEC_FAILED', 'exit code 1'));
    expect(await first).toEqual({ text: 'hi' });
    const error = await second.catch((caught: unknown) => caught);
    expect(isSluiceError(error, 'EXEC_FAILED')).toBe(true);
    expect((error as Error).message).toBe('exit code 1');
    expect(bridge.pending()).toEqual([]);
  });

  it('accepts the bridge shape through the protocol codec', async () => {
    const { bridge } = fakeTransport();
    const ok = bridge.call('tool', {});
    const ko = bridge.call('tool', {});
    const stream = bridge.stream('exec', { cmd: 'make' });
    bridge.completeHostcall('hc-1', { ok: true, value: 42 });
    bridge.completeHostcall('hc-2', { ok: false, code: 'DENIED', message: 'no' });
    bridge.completeHostcall('hc-3', {
      ok: true,
      stream: true,
      sequence: 0,
      isFinal: false,
      chunk: 'line 1\n',
    });
    bridge.completeHostcall('hc-3', { ok: true, stream: true, sequence: 1, isFinal: true, chunk: null });
    expect(await ok).toBe(42);
    await expect(ko).rejects.toMatchObject({ code: 'DENIED', message: 'no' });
    const values: unknown[] = [];
    for await (const value of stream) values.push(value);
    expect(values).toEqual(['line 1\n']);
  });

  it('ignores and counts outcomes for unknown or completed calls', async () => {
    const { bridge } = fakeTransport();
    const call = bridge.call('tool', {});
    bridge.completeHostcall('hc-1', success(1));
    bridge.completeHostcall('hc-1', success(2));
    bridge.completeHostcall('hc-9', streamChunk(0, 'x', false));
    const stream = bridge.stream('exec', { cmd: 'ls' });
    bridge.completeHostcall(stream.callId, streamChunk(0, null, true));
    bridge.completeHostcall(stream.callId, streamChunk(1, 'late', false));
    expect(await call).toBe(1);
    expect(bridge.stats.ignored).toBe(3);
  });

  it('counts an outcome that does not decode and fails its call with INVALID_FRAME', async () => {
    const { bridge, log } = fakeTransport();
    const call = bridge.call('tool', {});
    const stream = bridge.stream('exec', { cmd: 'ls' });
    bridge.completeHostcall('hc-1', { ok: 'yes' });
    bridge.completeHostcall(stream.callId, {
      ok: true,
      stream: true,
      sequence: -1,
      isFinal: false,
      chunk: null,
    });
    await expect(call).rejects.toMatchObject({
      code: 'INVALID_FRAME',
      message: expect.stringContaining('`outcome.ok`'),
    });
    await expect(stream.next()).rejects.toMatchObject({ code: 'INVALID_FRAME' });
    expect(bridge.stats.invalid).toBe(2);
    expect(log).toEqual(['cancel hc-2']);
  });

  it('rejects a non-streaming call that receives a stream chunk', async () => {
    const { bridge } = fakeTransport();
    const call = bridge.call('tool', {});
    bridge.completeHostcall('hc-1', streamChunk(0, 'x', false));
    await expect(call).rejects.toMatchObject({ code: 'INVALID_FRAME' });
  });

  it('stream() sets stream: true, pulls and cancels through the transport; cancelStream only for live streams', async () => {
    const { bridge, sent, log } = fakeTransport();
    const stream = bridge.stream('http', { url: 'http://127.0.0.1/x', buffer_size: 8 });
    expect(sent).toEqual([
      { callId: 'hc-1', kind: 'http', payload: { url: 'http://127.0.0.1/x', buffer_size: 8, stream: true } },
    ]);
    void stream.next();
    bridge.cancelStream('hc-1');
    bridge.cancelStream('hc-7');
    expect(log).toEqual(['pull hc-1 8', 'cancel hc-1']); // the window is the call's buffer_size
    bridge.completeHostcall('hc-1', streamChunk(0, null, true));
    bridge.cancelStream('hc-1');
    expect(log).toEqual(['pull hc-1 8', 'cancel hc-1']);
  });

  it('uses the injected call ids and validates its options', () => {
    const ids = ['a', 'b'];
    const bridge = createBridge({
      send: () => {},
      pull: () => {},
      cancelStream: () => {},
      callIds: () => ids.shift() ?? 'z',
    });
    void bridge.call('tool', {});
    expect(bridge.pending()).toEqual(['a']);
    expect(() => createBridge({ pull: () => {}, cancelStream: () => {} } as never)).toThrow(
      'Expected the `send` option to be a function, got `undefined` (undefined)',
    );
    expect(() => createBridge({ send: 1, pull: () => {}, cancelStream: () => {} } as never)).toThrow(
      'Expected the `send` option to be a function, got `1` (number)',
    );
  });

  describe('the in-process entry (outcomes a host built itself)', () => {
    const entry = (bridge: ReturnType<typeof createBridge>) => {
      const deliver = inProcessDelivery.get(bridge);
      if (deliver === undefined) throw new Error('no in-process entry');
      // As a host delivers: a macrotask around the outcome.
      return (callId: string, outcome: HostcallOutcome) =>
        deliver({ seq: 0, extensionId: 'ext-a', callId, outcome });
    };

    it('hands a stream its chunks, renaming an object chunk and keeping its sequence and isFinal', () => {
      const { bridge } = fakeTransport();
      const events: unknown[] = [];
      bridge.stream('exec', { cmd: 'make' }).subscribe((event) => events.push(event));
      entry(bridge)('hc-1', streamChunk(0, 'line 1\n', false));
      entry(bridge)('hc-1', streamChunk(1, 7, false));
      entry(bridge)('hc-1', streamChunk(2, { exit_code: 0, timed_out: false }, true));
      expect(events).toEqual([
        { sequence: 0, kind: 'chunk', content: 'line 1\n', isFinal: false },
        { sequence: 1, kind: 'chunk', content: 7, isFinal: false },
        { sequence: 2, kind: 'chunk', content: { exitCode: 0, timedOut: false }, isFinal: true },
      ]);
    });

    it('renames a success value of a plain call', async () => {
      const { bridge } = fakeTransport();
      const result = bridge.call('exec', { cmd: 'true' });
      entry(bridge)('hc-1', success({ exit_code: 1 }));
      expect(await result).toEqual({ exitCode: 1 });
    });

    it('counts a text chunk for an unknown call as ignored, and rejects one for a plain call', async () => {
      const { bridge } = fakeTransport();
      entry(bridge)('hc-9', streamChunk(0, 'stray\n', false));
      expect(bridge.stats.ignored).toBe(1);
      const result = bridge.call('tool', {});
      entry(bridge)('hc-1', streamChunk(0, 'line\n', false));
      await expect(result).rejects.toMatchObject({ code: 'INVALID_FRAME' });
    });

    it('fails a stream on an out-of-order text chunk (STREAM_SEQUENCE) and cancels it', async () => {
      const { bridge, log } = fakeTransport();
      const stream = bridge.stream('exec', { cmd: 'make' });
      entry(bridge)('hc-1', streamChunk(1, 'second\n', false));
      await expect(stream.next()).rejects.toMatchObject({ code: 'STREAM_SEQUENCE' });
      expect(log).toContain('cancel hc-1');
    });

    it('decodes a text chunk with a malformed envelope, failing the stream with INVALID_FRAME', async () => {
      const { bridge, log } = fakeTransport();
      const stream = bridge.stream('exec', { cmd: 'make' });
      entry(bridge)('hc-1', streamChunk(0, 'line\n', 'yes' as never));
      await expect(stream.next()).rejects.toMatchObject({ code: 'INVALID_FRAME' });
      expect(bridge.stats.invalid).toBe(1);
      expect(log).toContain('cancel hc-1');
    });
  });
});
