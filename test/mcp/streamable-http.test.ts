import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, registerBuiltinTools } from '../../src/kernel/index.js';
import { serveMcp } from '../../src/mcp/index.js';
import { groupGone } from '../support/processes.js';
import { needs } from '../support/system-tools.js';
import { startGroupOfSleeps, WAIT_FOR_FILE } from './connect-in-memory.js';

describe('serveMcp over Streamable HTTP (a real HTTP server on 127.0.0.1)', () => {
  let http: Server;
  let client: Client;
  beforeAll(async () => {
    // One session: serveMcp gives each transport (each session) its own SDK Server.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await serveMcp(registerBuiltinTools(createToolRegistry()), transport, { allow: ['sh', 'python3'] });
    http = createServer((request, response) => void transport.handleRequest(request, response));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    client = new Client({ name: 'sluice-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    http?.closeAllConnections();
    await new Promise((resolve) => http?.close(resolve));
  });

  it.skipIf(!needs('python3'))(
    'streams progress on the call’s event stream while the command runs, then the result',
    async () => {
      const gate = join(mkdtempSync(join(tmpdir(), 'sluice-mcp-http-')), 'go');
      const messages: string[] = [];
      const result = await client.callTool(
        { name: 'Exec', arguments: { argv: ['python3', '-c', WAIT_FOR_FILE, gate] } },
        undefined,
        {
          onprogress: (update) => {
            messages.push(update.message ?? '');
            if (update.message?.includes('first')) writeFileSync(gate, '');
          },
        },
      );
      expect(messages[0]).toMatch(/^first\n/);
      expect(messages.join('')).toContain('second\n');
      expect(result.structuredContent).toMatchObject({ exit_code: 0, stdout: 'first\nsecond\n' });
    },
  );

  it.skipIf(!needs('linux'))('kills the process group when the call is aborted', async () => {
    const controller = new AbortController();
    const pgid = await startGroupOfSleeps(client, 'sluice-mcp-http', controller.signal);
    expect(pgid).toBeGreaterThan(0);
    controller.abort('stop');
    expect(await groupGone(pgid, 2_000)).toBe(true);
  });
});
