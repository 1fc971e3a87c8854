import { describe, expect, it } from 'vitest';
import { CallRegistry } from '../../../src/kernel/host/call-registry.js';
import type { HostStream } from '../../../src/kernel/host/host.js';

const fakeStream = (extensionId: string, callId: string) => ({ extensionId, callId }) as HostStream;

describe('CallRegistry', () => {
  it('keys calls by (extensionId, callId), even when ids contain separators', () => {
    const calls = new CallRegistry();
    calls.add('ext-a', 'hc-1');
    calls.add('a:b', 'c');
    expect(calls.has('ext-a', 'hc-1')).toBe(true);
    expect(calls.has('ext-b', 'hc-1')).toBe(false);
    expect(calls.has('a', 'b:c')).toBe(false);
    const stream = fakeStream('ext-a', 'hc-1');
    calls.attach(stream);
    calls.attach(fakeStream('ext-b', 'hc-1')); // not in flight: ignored
    expect(calls.stream('ext-a', 'hc-1')).toBe(stream);
    expect(calls.stream('ext-b', 'hc-1')).toBeUndefined();
    calls.delete('ext-b', 'hc-1');
    calls.delete('ext-a', 'hc-1');
    expect(calls.has('ext-a', 'hc-1')).toBe(false);
    expect(calls.stream('ext-a', 'hc-1')).toBeUndefined();
    expect(calls.has('a:b', 'c')).toBe(true);
  });

  it('lists live streams oldest first, across extensions or for one', () => {
    const calls = new CallRegistry();
    const order = [
      ['ext-a', 'hc-1'],
      ['ext-b', 'hc-1'],
      ['ext-a', 'hc-2'],
      ['ext-b', 'hc-2'],
    ] as const;
    for (const [extensionId, callId] of order) calls.add(extensionId, callId);
    for (const [extensionId, callId] of order) calls.attach(fakeStream(extensionId, callId));
    calls.add('ext-a', 'hc-3'); // in flight without a stream
    const ids = (streams: readonly HostStream[]) => streams.map((s) => `${s.extensionId}/${s.callId}`);
    expect(ids(calls.streams())).toEqual(['ext-a/hc-1', 'ext-b/hc-1', 'ext-a/hc-2', 'ext-b/hc-2']);
    expect(ids(calls.streams('ext-a'))).toEqual(['ext-a/hc-1', 'ext-a/hc-2']);
    calls.delete('ext-b', 'hc-1');
    calls.delete('ext-b', 'hc-2');
    expect(ids(calls.streams())).toEqual(['ext-a/hc-1', 'ext-a/hc-2']);
    expect(calls.streams('ext-b')).toEqual([]);
  });
});
