import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolRegistry, registerBuiltinTools } from '../src/kernel/index.js';
import { serveMcpHttp } from '../src/mcp/index.js';
import { RedisRunStore } from '../src/redis/index.js';
import type { RunStore } from '../src/runs/run-store.js';
// Zombie-aware, as in bench/cancel.ts.
import { processGroupAlive as groupRunning } from '../src/sources/exec/process-group.js';
import type { RunResult } from './bench-result.js';
import { countProgressLines } from './count-progress-lines.js';
import { writeLinesFile } from './line-format.js';
import { startBenchRedis } from './redis-server.js';
import { timeThroughput } from './time-throughput.js';

/** `serveMcpHttp` on a `node:http` server on 127.0.0.1, and the SDK's Client connected to it. */
async function serveAndConnect(store: RunStore | undefined, allow: string, token?: string) {
  let handle: ((req: never, res: never) => void) | undefined;
  const http: Server = createServer((req, res) => handle?.(req as never, res as never));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const mcp = serveMcpHttp(registerBuiltinTools(createToolRegistry()), {
    allow: [allow],
    timeoutS: 600,
    port,
    ...(store === undefined ? {} : { store }),
    ...(token === undefined ? {} : { token }),
  });
  handle = mcp.handle as never;
  const url = `http://127.0.0.1:${port}/mcp`;
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${mcp.token}` } },
  });
  await client.connect(transport);
  return {
    client,
    url,
    token: mcp.token as string,
    sessionId: transport.sessionId as string,
    close: async () => {
      await client.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await mcp.close();
    },
  };
}

/**
 * `mcp-http-progress` / `-redis`: the Exec tool of `serveMcpHttp` to the SDK's Client over real
 * HTTP on 127.0.0.1, every message of the call's event stream kept in the run store (memory, or
 * a local Redis); lines counted in the progress notifications' messages.
 *
 * @example
 * ```ts
 * const { lines, seconds } = await measureMcpHttpProgress('cat', ['lines.txt'], 'memory');
 * ```
 */
export async function measureMcpHttpProgress(
  command: string,
  args: readonly string[],
  where: 'memory' | 'redis',
  expectedLines?: number,
): Promise<RunResult> {
  const redis = where === 'redis' ? await startBenchRedis() : undefined;
  const store = redis === undefined ? undefined : new RedisRunStore({ url: redis.url });
  const served = await serveAndConnect(store, command);
  try {
    // This process holds both ends (the server and the SDK's client): the CPU of the whole exchange.
    const figures = await timeThroughput(() => countProgressLines(served.client, command, args));
    return { ...figures, ...(expectedLines === undefined ? {} : { expectedLines }) };
  } finally {
    await served.close();
    await store?.close();
    await redis?.stop();
  }
}

/** A Redis variant's lines: the first `lines` of the generated file, written for it. */
export async function redisProgressFile(tmp: string, lines: number): Promise<string> {
  const file = join(tmp, 'mcp-http-lines.txt');
  await writeLinesFile(file, lines);
  return file;
}

/**
 * `mcp-http-resume` / `-redis`: while a call streams a line every 10 ms, a reconnect — `GET` with
 * the last event id the client saw, as the SDK's client sends it after a dropped connection —
 * is timed from the request until the first resumed event arrives; `reps` times. This is what
 * the server adds: the client's own wait before it reconnects (the server's `retry:`, 500 ms) is
 * not counted.
 *
 * @example
 * ```ts
 * const times = await measureMcpHttpResume('memory', 10);
 * ```
 */
export async function measureMcpHttpResume(where: 'memory' | 'redis', reps: number): Promise<number[]> {
  const redis = where === 'redis' ? await startBenchRedis() : undefined;
  const store = redis === undefined ? undefined : new RedisRunStore({ url: redis.url });
  const served = await serveAndConnect(store, 'sh');
  const controller = new AbortController();
  let lastEventId: string | undefined;
  const call = served.client.request(
    {
      method: 'tools/call',
      params: {
        name: 'Exec',
        arguments: { argv: ['sh', '-c', 'while :; do echo tick; sleep 0.01; done'], timeout_s: 600 },
      },
    },
    (await import('@modelcontextprotocol/sdk/types.js')).CallToolResultSchema,
    {
      signal: controller.signal,
      timeout: 600_000,
      onprogress: () => {},
      onresumptiontoken: (token) => {
        lastEventId = token;
      },
    },
  );
  call.catch(() => {});
  const times: number[] = [];
  try {
    // A few events into the call, so that each reconnect has events to resume.
    while (Number(lastEventId?.split('@')[1] ?? -1) < 3)
      await new Promise((resolve) => setTimeout(resolve, 5));
    for (let rep = 0; rep < reps; rep++) {
      const started = performance.now();
      const response = await fetch(served.url, {
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${served.token}`,
          'mcp-session-id': served.sessionId,
          'last-event-id': lastEventId as string,
        },
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      while (!text.includes('\ndata: ')) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the resumed stream ended: ${text}`);
        text += new TextDecoder().decode(value);
      }
      times.push(performance.now() - started);
      await reader.cancel();
    }
  } finally {
    controller.abort('bench');
    await served.close();
    await store?.close();
    await redis?.stop();
  }
  return times;
}

/**
 * `redis-mcp-http-cancel`: two `serveMcpHttp` instances sharing a local Redis; a `tools/call` of
 * `script` on the first, and once its progress names the group's leader, `notifications/cancelled`
 * POSTed to the **second**; the time from that POST until no process of the group runs (polled
 * every millisecond), `reps` times. What a balancer in front adds is not counted.
 *
 * @example
 * ```ts
 * const times = await measureMcpHttpCancel('bench/fixtures/group-term.sh', 10);
 * ```
 */
export async function measureMcpHttpCancel(script: string, reps: number): Promise<number[]> {
  const redis = await startBenchRedis();
  const stores = [new RedisRunStore({ url: redis.url }), new RedisRunStore({ url: redis.url })];
  const first = await serveAndConnect(stores[0], 'sh');
  const second = await serveAndConnect(stores[1], 'sh', first.token);
  const headers = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    authorization: `Bearer ${first.token}`,
    'mcp-session-id': first.sessionId,
    'mcp-protocol-version': '2025-06-18',
  };
  const times: number[] = [];
  try {
    for (let rep = 0; rep < reps; rep++) {
      const id = `bench-cancel-${rep}`;
      const call = await fetch(first.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'Exec', arguments: { argv: ['sh', script] }, _meta: { progressToken: 1 } },
        }),
      });
      const reader = (call.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      let match: RegExpExecArray | null = null;
      while (match === null) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the call ended before its group was ready: ${text}`);
        text += new TextDecoder().decode(value);
        match = /pid (\d+)/.exec(text);
      }
      const pgid = Number(match[1]);
      const started = performance.now();
      const cancel = fetch(second.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id },
        }),
      });
      const deadline = started + 10_000;
      while (groupRunning(pgid)) {
        if (performance.now() > deadline) throw new Error(`process group ${pgid} still running after cancel`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      times.push(performance.now() - started);
      await cancel;
      await reader.cancel().catch(() => {});
    }
  } finally {
    await second.close();
    await first.close();
    for (const store of stores) await store.close();
    await redis.stop();
  }
  return times;
}
