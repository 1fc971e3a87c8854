import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { McpSessions } from '../../src/mcp/mcp-sessions.js';
import { MemoryRunStore } from '../../src/runs/index.js';
import { advanceVirtualTime } from '../../src/testing/index.js';
import { groupGone, pollUntil } from '../support/processes.js';
import { needs } from '../support/system-tools.js';
import { GROUP_OF_SLEEPS } from './connect-in-memory.js';
import { rawInitialize, rawMcpRequest, readSse, startInProcessMcpHttp } from './serve-mcp-http-in-process.js';

describe('McpSessions: idle expiry (virtual time)', () => {
  it('ends a session after idleMs without a request or an open response; each one restarts the clock', async () => {
    const clock = new VirtualTimeScheduler();
    const store = new MemoryRunStore();
    const sessions = new McpSessions(store, { idleMs: 1_000, scheduler: clock });
    await sessions.open('a');
    await sessions.open('b');
    const ended: string[] = [];
    sessions.watch('a', () => ended.push('a'));
    const releaseB = sessions.hold('b'); // b has a response open (a call's stream)
    advanceVirtualTime(clock, 999);
    expect(await sessions.alive('a')).toBe(true);
    sessions.hold('a')(); // a request of a, answered at once
    advanceVirtualTime(clock, 999);
    expect(await sessions.alive('a')).toBe(true);
    advanceVirtualTime(clock, 1);
    expect(await sessions.alive('a')).toBe(false);
    expect(ended).toEqual(['a']); // its calls here are told (and cancelled)
    expect(await sessions.alive('b')).toBe(true); // held, at t = 1999
    advanceVirtualTime(clock, 5_000);
    expect(await sessions.alive('b')).toBe(true);
    releaseB();
    releaseB(); // twice is once
    advanceVirtualTime(clock, 999);
    expect(await sessions.alive('b')).toBe(true);
    advanceVirtualTime(clock, 1);
    expect(await sessions.alive('b')).toBe(false);
    sessions.close();
    await store.close();
  });

  it('a session owned elsewhere is not held here, and close() frees the timers', async () => {
    const clock = new VirtualTimeScheduler();
    const store = new MemoryRunStore();
    const sessions = new McpSessions(store, { idleMs: 1_000, scheduler: clock });
    sessions.hold('unknown')();
    await sessions.open('a');
    sessions.close();
    expect(clock.actions.filter((action) => !action.closed)).toEqual([]);
    await store.close();
  });
});

describe('serveMcpHttp: sessionIdleMs', () => {
  it.skipIf(!needs('linux'))(
    'a session whose client left mid-call expires: the call’s process group is killed, the session is gone',
    async () => {
      const server = await startInProcessMcpHttp({ allow: ['sh'], sessionIdleMs: 300 });
      try {
        const sessionId = await rawInitialize(server.url);
        const tag = `sluice-idle-session-${process.pid}-${Date.now()}`;
        const post = await rawMcpRequest(server.url, {
          method: 'POST',
          sessionId,
          body: {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {
              name: 'Exec',
              arguments: { argv: ['sh', '-c', GROUP_OF_SLEEPS, tag] },
              _meta: { progressToken: 1 },
            },
          },
        });
        const stream = readSse(post);
        expect(await pollUntil(() => stream.first !== undefined, 20_000)).toBe(true);
        const pgid = Number.parseInt(stream.first ?? '', 10);
        expect(pgid).toBeGreaterThan(0);
        // While the call's stream is open the session is in use: more than three idle times pass.
        expect(await groupGone(pgid, 1_000)).toBe(false);
        post.destroy(); // the client leaves without a DELETE
        expect(await groupGone(pgid, 10_000)).toBe(true);
        const after = await rawMcpRequest(server.url, {
          method: 'POST',
          sessionId,
          body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        });
        after.resume();
        expect(after.statusCode).toBe(404);
      } finally {
        await server.close();
      }
    },
    30_000,
  );
});
