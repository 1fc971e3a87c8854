import { describe, expect, it } from 'vitest';
import { fixture, pollUntil, processesWithTag, writtenBytes } from '../support/processes.js';
import { needs } from '../support/system-tools.js';
import { rawInitialize, rawMcpRequest, readSse, startInProcessMcpHttp } from './serve-mcp-http-in-process.js';

/** exec-counter.py's line: 10 digits, ' counter line', a newline. */
const LINE_BYTES = 24;
/**
 * What may sit between the child and a client that stopped reading: the pipe, the progress
 * pump's ~1 MiB of text (as JSON), one notification in the SDK's stream, the response's and both
 * sockets' buffers (loopback buffers grow to a few MiB). A tool not paused runs far past it.
 */
const MAX_LEAD_BYTES = 24 * 1024 * 1024;

/** Polls until the child's written byte count stops growing between two looks (it blocks on its pipe). */
function settled(pid: number): Promise<boolean> {
  let before = -1;
  return pollUntil(() => {
    const now = writtenBytes(pid);
    const still = now === before;
    before = now;
    return still;
  }, 30_000);
}

describe('serveMcpHttp: a slow HTTP client paces the tool', () => {
  it.skipIf(!needs('linux', 'python3'))(
    'a client that stops reading the call’s stream, then a reconnect that stops reading, pause the child: its lead stays bounded',
    async () => {
      const server = await startInProcessMcpHttp({ allow: ['python3'] });
      const tag = `sluice-slow-http-${process.pid}-${Date.now()}`;
      try {
        const sessionId = await rawInitialize(server.url);
        const post = await rawMcpRequest(server.url, {
          method: 'POST',
          sessionId,
          body: {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {
              name: 'Exec',
              arguments: { argv: ['python3', fixture('exec-counter.py'), tag] },
              _meta: { progressToken: 1 },
            },
          },
        });
        expect(post.statusCode).toBe(200);
        const first = readSse(post);
        expect(await pollUntil(() => first.lines > 0, 20_000)).toBe(true);
        post.pause();
        const [pid] = processesWithTag(tag);
        expect(pid).toBeGreaterThan(0);
        // The live stream: the socket fills, the notification waits, the pump pauses the tool.
        expect(await settled(pid as number)).toBe(true);
        const firstLead = writtenBytes(pid as number) - first.lines * LINE_BYTES;
        expect(firstLead).toBeLessThan(MAX_LEAD_BYTES);

        // The connection drops; the client reconnects with Last-Event-ID (served here) and reads slowly too.
        const lastEventId = first.lastId;
        expect(lastEventId).toMatch(/@\d+$/);
        post.destroy();
        const get = await rawMcpRequest(server.url, { method: 'GET', sessionId, lastEventId });
        expect(get.statusCode).toBe(200);
        const second = readSse(get);
        const delivered = () => first.lines + second.lines;
        expect(await pollUntil(() => second.lines > 0, 20_000)).toBe(true);
        get.pause();
        expect(await settled(pid as number)).toBe(true);
        const secondLead = writtenBytes(pid as number) - delivered() * LINE_BYTES;
        expect(secondLead).toBeLessThan(MAX_LEAD_BYTES);

        // Reading again lets the child run again.
        const seen = delivered();
        get.resume();
        expect(await pollUntil(() => delivered() > seen + 200_000, 30_000)).toBe(true);
        get.destroy();
      } finally {
        await server.close();
      }
      // Closing the server cancels the call: the child is gone.
      expect(await pollUntil(() => processesWithTag(tag).length === 0, 5_000)).toBe(true);
    },
    90_000,
  );
});
