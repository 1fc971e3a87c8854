import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { lastValueFrom, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAsyncIterable } from '../../src/adapters/index.js';
import { createToolRegistry, registerBuiltinTools } from '../../src/kernel/index.js';
import { fromMcpToolCall, isMcpToolError, type McpToolCallEvent } from '../../src/mcp/index.js';
import { checkSequence } from '../../src/operators/index.js';
import { groupGone, pollUntil } from '../support/processes.js';
import { needs } from '../support/system-tools.js';
import { connectInMemory, GROUP_OF_SLEEPS } from './connect-in-memory.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The SDK's own example server (`examples/server/progressExample`), run as its README says: over stdio. */
const progressExample = fileURLToPath(
  import.meta.resolve('@modelcontextprotocol/sdk/examples/server/progressExample.js'),
);

/** A server in the SDK's example style (McpServer.registerTool with a zod shape), in memory. */
async function exampleStyleServer() {
  const server = new McpServer({ name: 'example-style', version: '1.0.0' });
  const cancelled: string[] = [];
  server.registerTool(
    'ticks',
    {
      description: 'Sends n progress ticks, then waits for `hold` ms',
      inputSchema: { n: z.number(), hold: z.number() },
    },
    async ({ n, hold }, extra) => {
      for (let index = 1; index <= n; index += 1) {
        const progressToken = extra._meta?.progressToken;
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: index, total: n, message: `tick ${index}` },
          });
        }
      }
      await new Promise<void>((resolve) => {
        const stop = () => {
          clearTimeout(timer);
          cancelled.push(String(extra.requestId));
          resolve();
        };
        const timer = setTimeout(resolve, hold);
        if (extra.signal.aborted) stop();
        else extra.signal.addEventListener('abort', stop);
      });
      return { content: [{ type: 'text', text: `ticked ${n}` }] };
    },
  );
  server.registerTool('fail', { inputSchema: { why: z.string() } }, async ({ why }) => ({
    content: [{ type: 'text', text: `failed: ${why}` }],
    isError: true,
  }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(clientTransport);
  closers.push(() => client.close());
  return { client, cancelled };
}

describe('fromMcpToolCall', () => {
  it("follows the SDK's own progress example over stdio: one event per notification, the result last", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [progressExample],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'sluice-test', version: '1.0.0' });
    await client.connect(transport);
    closers.push(() => client.close());
    const events = await lastValueFrom(
      fromMcpToolCall(client, { name: 'count', arguments: { n: 4 } }).pipe(checkSequence(), toArray()),
    );
    expect(events).toEqual([
      {
        sequence: 0,
        kind: 'progress',
        content: { progress: 1, total: 4, message: 'Counting: 1/4' },
        isFinal: false,
      },
      {
        sequence: 1,
        kind: 'progress',
        content: { progress: 2, total: 4, message: 'Counting: 2/4' },
        isFinal: false,
      },
      {
        sequence: 2,
        kind: 'progress',
        content: { progress: 3, total: 4, message: 'Counting: 3/4' },
        isFinal: false,
      },
      {
        sequence: 3,
        kind: 'progress',
        content: { progress: 4, total: 4, message: 'Counting: 4/4' },
        isFinal: false,
      },
      {
        sequence: 4,
        kind: 'result',
        content: { content: [{ type: 'text', text: 'Counted to 4' }] },
        isFinal: true,
      },
    ] satisfies McpToolCallEvent[]);
  });

  it('is a typed error for an isError result, carrying the result', async () => {
    const { client } = await exampleStyleServer();
    const error = await lastValueFrom(
      fromMcpToolCall(client, { name: 'fail', arguments: { why: 'no disk' } }),
    ).catch((caught: unknown) => caught);
    expect(isMcpToolError(error, 'MCP_TOOL_ERROR')).toBe(true);
    expect(error).toMatchObject({
      name: 'McpToolError',
      code: 'MCP_TOOL_ERROR',
      message: 'MCP tool `fail` answered an error: failed: no disk',
      info: { name: 'fail', progressEvents: 0, result: { isError: true } },
    });
  });

  it('is MCP_REQUEST_FAILED when no result comes (a request timeout), with the JSON-RPC code', async () => {
    const { client } = await exampleStyleServer();
    const error = await lastValueFrom(
      fromMcpToolCall(
        client,
        { name: 'ticks', arguments: { n: 2, hold: 5_000 } },
        { timeoutMs: 100, resetTimeoutOnProgress: false },
      ).pipe(toArray()),
    ).catch((caught: unknown) => caught);
    expect(isMcpToolError(error, 'MCP_REQUEST_FAILED')).toBe(true);
    expect(error).toMatchObject({ info: { name: 'ticks', mcpCode: -32001, progressEvents: 2 } });
    expect((error as Error).message).toMatch(
      /^MCP call of tool `ticks` failed: MCP error -32001: Request timed out/,
    );
  });

  it('sends the cancellation when unsubscribed before the result (take)', async () => {
    const { client, cancelled } = await exampleStyleServer();
    const first = await lastValueFrom(
      fromMcpToolCall(client, { name: 'ticks', arguments: { n: 3, hold: 30_000 } }).pipe(take(2), toArray()),
    );
    expect(first.map((event) => event.content)).toEqual([
      { progress: 1, total: 3, message: 'tick 1' },
      { progress: 2, total: 3, message: 'tick 2' },
    ]);
    expect(await pollUntil(() => cancelled.length === 1, 5_000)).toBe(true);
  });

  it.skipIf(!needs('linux'))("breaking out of for await kills a sluice server's command group", async () => {
    const { client, close } = await connectInMemory(registerBuiltinTools(createToolRegistry()), {
      allow: ['sh'],
    });
    closers.push(close);
    let pgid = 0;
    for await (const event of toAsyncIterable(
      fromMcpToolCall(client, {
        name: 'Exec',
        arguments: { argv: ['sh', '-c', GROUP_OF_SLEEPS, 'sluice-from-mcp'] },
      }),
    )) {
      pgid = Number.parseInt((event.content as { message?: string }).message ?? '', 10);
      break;
    }
    expect(pgid).toBeGreaterThan(0);
    expect(await groupGone(pgid, 5_000)).toBe(true);
  });

  it('each subscription is its own call; the result content of a sluice Exec is the CallToolResult', async () => {
    const { client, close } = await connectInMemory(registerBuiltinTools(createToolRegistry()), {
      allow: ['sh'],
    });
    closers.push(close);
    const call = fromMcpToolCall(client, {
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'echo one; echo two'] },
    });
    const [a, b] = await Promise.all([
      lastValueFrom(call.pipe(toArray())),
      lastValueFrom(call.pipe(toArray())),
    ]);
    for (const events of [a, b]) {
      const result = events.at(-1);
      expect(result).toMatchObject({
        kind: 'result',
        isFinal: true,
        content: { structuredContent: { stdout: 'one\ntwo\n' } },
      });
      expect(
        events
          .slice(0, -1)
          .map((event) => (event.content as { message: string }).message)
          .join(''),
      ).toBe('one\ntwo\n');
    }
  });

  it('checks its arguments and options in the one template', () => {
    const client = { callTool: async () => ({ content: [] }) } as never;
    expect(() => fromMcpToolCall({} as never, { name: 'x' })).toThrow(
      'Expected the `client` argument to be an MCP Client, got `{}` (object)',
    );
    expect(() => fromMcpToolCall(client, { name: '' })).toThrow(
      'Expected the `params` argument to be an object with a non-empty `name`',
    );
    expect(() => fromMcpToolCall(client, { name: 'x' }, { timeoutMs: 0 })).toThrow(
      'Expected the `timeoutMs` option to be an integer from 1 to 2147483647, got `0` (number)',
    );
    expect(() => fromMcpToolCall(client, { name: 'x' }, { timeout: 5 } as never)).toThrow(
      'Unknown `timeout` option',
    );
  });
});
