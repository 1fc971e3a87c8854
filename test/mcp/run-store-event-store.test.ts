import { describe, expect, it } from 'vitest';
import { createToolRegistry, registerBuiltinTools } from '../../src/kernel/index.js';
import { RunStoreEventStore, serveMcpHttp } from '../../src/mcp/index.js';
import { MemoryRunStore } from '../../src/runs/index.js';

const progress = (n: number) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});

describe('RunStoreEventStore (the SDK EventStore in a run store)', () => {
  it('keeps a stream as a run: sequence ids, an exact replay after any id, the response as its end', async () => {
    const store = new MemoryRunStore();
    const events = new RunStoreEventStore(store, { prefix: 'a:' });
    const ids = [
      await events.storeEvent('s1', {} as never),
      await events.storeEvent('s1', progress(1)),
      await events.storeEvent('s1', progress(2)),
      await events.storeEvent('s1', { jsonrpc: '2.0', id: 7, result: {} }),
    ];
    expect(ids).toEqual(['a:s1@0', 'a:s1@1', 'a:s1@2', 'a:s1@3']);
    expect(await events.getStreamIdForEventId('a:s1@1')).toBe('s1');
    expect(await events.getStreamIdForEventId('b:s1@1')).toBeUndefined();
    expect(await events.getStreamIdForEventId('nonsense')).toBeUndefined();
    const sent: [string, unknown][] = [];
    const streamId = await events.replayEventsAfter('a:s1@1', {
      send: async (id, message) => {
        sent.push([id, message]);
      },
    });
    expect(streamId).toBe('s1');
    expect(sent).toEqual([
      ['a:s1@2', progress(2)],
      ['a:s1@3', { jsonrpc: '2.0', id: 7, result: {} }],
    ]);
    expect((await store.info('a:s1'))?.state).toBe('ended');
    // An id of a stream the store does not hold: nothing to replay.
    await expect(events.replayEventsAfter('a:s9@0', { send: async () => {} })).rejects.toThrow(
      /no longer kept/,
    );
  });

  it('refuses a bad store or option in the options template', () => {
    expect(() => new RunStoreEventStore({} as never)).toThrow(
      'Expected the `store` argument to be a RunStore, got `{}` (object)',
    );
    expect(() => new RunStoreEventStore(new MemoryRunStore(), { prefix: 3 } as never)).toThrow(
      'Expected the `prefix` option to be a string, got `3` (number)',
    );
  });
});

describe('serveMcpHttp options', () => {
  const registry = registerBuiltinTools(createToolRegistry());
  it('refuses what would make it unsafe or unusable, naming the option', () => {
    expect(() => serveMcpHttp(registry, {} as never)).toThrow(
      'Expected the `port` option to be a port number, got `undefined` (undefined)',
    );
    expect(() => serveMcpHttp(registry, { port: 80, token: 'short' })).toThrow(
      'Expected the `token` option to be a string of at least 16 characters, or null, got `short` (string)',
    );
    expect(() => serveMcpHttp(registry, { port: 80, allowEnv: ['A=B'] })).toThrow(
      'Expected the `allowEnv` option to be an array of environment variable names',
    );
    expect(() => serveMcpHttp(registry, { port: 80, confineCwd: false } as never)).toThrow(/confineCwd/);
    expect(() => serveMcpHttp(registry, { port: 80, sessionIdleMs: 0 })).toThrow(
      'Expected the `sessionIdleMs` option to be a positive integer, got `0` (number)',
    );
  });

  it('makes a random token unless given one, or none with null', () => {
    expect(serveMcpHttp(registry, { port: 80 }).token).toMatch(/^[\w-]{24}$/);
    expect(serveMcpHttp(registry, { port: 80, token: null }).token).toBeUndefined();
  });
});
