import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectExtension } from '../../../src/kernel/bridge/connect-extension.js';
import { createHost } from '../../../src/kernel/host/create-host.js';

let server: Server;
let base = '';
const closed: Promise<void>[] = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url === '/lines') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('one\ntwo\n');
      setImmediate(() => response.end('three\n'));
    } else if (request.url === '/endless') {
      closed.push(once(response, 'close').then(() => undefined));
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('first\n');
    } else {
      response.writeHead(404);
      response.end('nope');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

describe('streaming http through host + bridge (real server)', () => {
  it('streams body lines, then a final { status, bytes, duration_ms } chunk', async () => {
    const host = createHost({ logger: { warn: () => {} } });
    const { api } = connectExtension(host, 'ext-a');
    const got: unknown[] = [];
    for await (const chunk of api.http(`${base}/lines`, { stream: true, lines: true })) got.push(chunk);
    expect(got.slice(0, 3)).toEqual(['one\n', 'two\n', 'three\n']);
    expect(got[3]).toMatchObject({ status: 200, bytes: 14 });
    expect(got).toHaveLength(4);
  });

  it('a 404 is an Error thrown from next(); the non-streaming call answers the whole body', async () => {
    const host = createHost({ logger: { warn: () => {} } });
    const { api } = connectExtension(host, 'ext-a');
    const iterator = api.http(`${base}/missing`, { stream: true })[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    expect(await api.http(`${base}/lines`)).toMatchObject({ status: 200, body: 'one\ntwo\nthree\n' });
  });

  it('break aborts the request: the server sees the connection close', async () => {
    const host = createHost({ logger: { warn: () => {} } });
    const { api } = connectExtension(host, 'ext-a');
    for await (const chunk of api.http(`${base}/endless`, { stream: true, lines: true })) {
      expect(chunk).toBe('first\n');
      break;
    }
    expect(closed).toHaveLength(1);
    await closed[0];
    expect(host.activeStreams()).toEqual([]);
  });
});
