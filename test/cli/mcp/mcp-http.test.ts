import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGroupOfSleeps } from '../../mcp/connect-in-memory.js';
import { groupGone, pollUntil, processesWithTag } from '../../support/processes.js';
import { startRoundRobinProxy } from '../../support/round-robin-proxy.js';
import { needs } from '../../support/system-tools.js';
import {
  callWithTwoCuts,
  connectHttp,
  EXPECTED,
  type McpHttpProcess,
  startMcpHttp,
} from './mcp-http-server.js';

/** A raw HTTP request (Host and Origin as given), resolving with the status and body. */
function rawPost(
  port: number,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('sluice mcp --http (real processes, the SDK Client over Streamable HTTP)', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sluice-mcp-http-')));
  mkdirSync(join(root, 'inside'));
  let server: McpHttpProcess;
  beforeAll(async () => {
    server = await startMcpHttp(['--allow', 'sh', '--cwd', root, '--allow-env', 'GREETING']);
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('requires the token by default and refuses a wrong one, a foreign Origin and a foreign Host — nothing runs', async () => {
    const tag = `sluice-refused-${process.pid}-${Date.now()}`;
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: tag, version: '1' } },
    };
    const host = `127.0.0.1:${server.port}`;
    const bearer = `Bearer ${server.token}`;
    const cases: [Record<string, string>, number, RegExp][] = [
      [{}, 401, /Unauthorized/],
      [{ authorization: 'Bearer wrong-token-wrong-token' }, 401, /wrong token/],
      [{ authorization: bearer, origin: 'http://evil.example' }, 403, /Origin/],
      [{ authorization: bearer, host: `evil.example:${server.port}` }, 403, /DNS rebinding/],
    ];
    for (const [headers, status, message] of cases) {
      const answer = await rawPost(server.port, { host, ...headers }, call);
      expect(answer.status, JSON.stringify(headers)).toBe(status);
      expect(JSON.parse(answer.body).error.message).toMatch(message);
    }
    // The same guard stands before a tools/call: a refused one starts nothing.
    const exec = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'Exec', arguments: { argv: ['sh', '-c', 'sleep 30', tag] } },
    };
    expect((await rawPost(server.port, { host }, exec)).status).toBe(401);
    expect(
      (await rawPost(server.port, { host, authorization: bearer, origin: 'http://evil' }, exec)).status,
    ).toBe(403);
    expect(processesWithTag(tag)).toEqual([]);
    const ok = await rawPost(server.port, { host, authorization: bearer, origin: `http://${host}` }, call);
    expect(ok.status).toBe(200);
  });

  it('answers a call whose env sets a name not allowed, or whose cwd leaves --cwd, with an error result — nothing runs', async () => {
    const client = await connectHttp(server.url, server.token);
    const tag = `sluice-policy-${process.pid}-${Date.now()}`;
    const run = (extra: object) =>
      client.callTool({ name: 'Exec', arguments: { argv: ['sh', '-c', 'sleep 30', tag], ...extra } });
    const env = await run({ env: { BASH_ENV: '/tmp/evil' } });
    expect(env.isError).toBe(true);
    expect(JSON.stringify(env.content)).toContain('`env` is invalid (may set only GREETING)');
    for (const cwd of ['..', '/tmp', 'inside/../../x']) {
      const outside = await run({ cwd });
      expect(outside.isError, cwd).toBe(true);
      expect(JSON.stringify(outside.content)).toContain('must be a relative path that stays inside');
    }
    expect(processesWithTag(tag)).toEqual([]);
    const allowed = await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'echo "$GREETING from $PWD"'], env: { GREETING: 'hi' }, cwd: 'inside' },
    });
    expect(allowed.structuredContent).toMatchObject({
      exit_code: 0,
      stdout: `hi from ${join(root, 'inside')}\n`,
    });
    await client.close();
  });

  it.skipIf(!needs('linux'))(
    'kills the process group when the client cancels, and a DELETE of the session ends its calls',
    async () => {
      const client = await connectHttp(server.url, server.token);
      for (const end of ['abort', 'delete'] as const) {
        const tag = `sluice-http-${end}-${process.pid}-${Date.now()}`;
        const controller = new AbortController();
        const pgid = await startGroupOfSleeps(client, tag, controller.signal);
        expect(pgid).toBeGreaterThan(0);
        if (end === 'abort') controller.abort('stop');
        else await (client.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
        expect(await groupGone(pgid, 2_000)).toBe(true);
        expect(await pollUntil(() => processesWithTag(tag).length === 0, 2_000)).toBe(true);
      }
      await client.close();
    },
  );

  it('resumes a call whose connection is cut twice: every one of 20 000 lines once, in order, and the result', async () => {
    const targets: number[] = [];
    const balancer = await startRoundRobinProxy(targets);
    const direct = await startMcpHttp(['--allow', 'sh', '--allow-host', `127.0.0.1:${balancer.port}`]);
    targets.push(direct.port);
    try {
      const client = await connectHttp(balancer.url, direct.token);
      const { lines, dropped, result } = await callWithTwoCuts(client, balancer.cut);
      expect(dropped).toEqual([1, 1]);
      expect(lines).toEqual(EXPECTED);
      expect(result.structuredContent).toMatchObject({ exit_code: 0 });
      const resumes = balancer.log.filter(
        (entry) => entry.method === 'GET' && entry.lastEventId !== undefined,
      );
      expect(resumes.length).toBeGreaterThanOrEqual(2);
      await client.close();
    } finally {
      await balancer.close();
      await direct.stop();
    }
  });
});
