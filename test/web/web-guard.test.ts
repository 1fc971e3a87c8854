import { request } from 'node:http';
import { NEVER } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { RunRegistry } from '../../src/web/run-registry.js';
import { startWebServer, type WebServer } from '../../src/web/start-web-server.js';
import { createWebGuard } from '../../src/web/web-guard.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request to 127.0.0.1:`port` with exactly these headers (Host included). */
function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (res.headers['content-type']?.startsWith('text/event-stream')) res.destroy(); // enough
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const registry = new RunRegistry({ logDir: false });
const run = registry.start(NEVER, { command: 'sleep forever', id: 'r1' });
let server: WebServer;
const servers: WebServer[] = [];

afterAll(async () => {
  for (const each of servers) await each.close();
  registry.close();
});

describe('the web guard of a server bound to 127.0.0.1', async () => {
  server = await startWebServer({ registry, token: 'a-token-of-24-characters', allowedHosts: ['box.lan'] });
  servers.push(server);
  const port = Number(new URL(server.origin).port);
  const host = `127.0.0.1:${port}`;
  const token = server.token;

  it('refuses a Host that does not name the server (DNS rebinding), on every path', async () => {
    for (const path of ['/', `/runs/r1/events?token=${token}`, '/assets/page.js']) {
      const answer = await send(port, 'GET', path, {
        host: `attacker.example:${port}`,
        'x-sluice-token': token,
      });
      expect(answer.status).toBe(403);
      expect(answer.body).toContain('DNS rebinding');
    }
    expect((await send(port, 'GET', '/', { host: '127.0.0.1:1', 'x-sluice-token': token })).status).toBe(403);
    expect((await send(port, 'GET', '/', { host: '127.0.0.1', 'x-sluice-token': token })).status).toBe(403);
    expect((await send(port, 'GET', '/', { 'x-sluice-token': token })).status).toBe(400); // no Host: Node refuses
  });

  it('accepts the bound address, localhost and the names allowed', async () => {
    for (const name of ['127.0.0.1', 'localhost', 'LOCALHOST', 'box.lan']) {
      const answer = await send(port, 'GET', '/', { host: `${name}:${port}`, 'x-sluice-token': token });
      expect(answer.status).toBe(200);
    }
  });

  it('needs the token (header, Bearer, cookie or query) for everything but the assets', async () => {
    expect((await send(port, 'GET', '/', { host })).status).toBe(401);
    expect((await send(port, 'GET', '/runs/r1/events', { host })).status).toBe(401);
    expect(
      (await send(port, 'GET', '/', { host, 'x-sluice-token': 'a-token-of-24-characterX' })).status,
    ).toBe(403);
    expect((await send(port, 'GET', '/', { host, authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await send(port, 'GET', '/', { host, cookie: `other=1; sluice-${port}=${token}` })).status).toBe(
      200,
    );
    expect((await send(port, 'GET', '/assets/page.css', { host })).status).toBe(200);
    const first = await send(port, 'GET', `/?token=${token}`, { host });
    expect(first.status).toBe(200);
    expect(first.headers['set-cookie']).toEqual([
      `sluice-${port}=${token}; HttpOnly; SameSite=Strict; Path=/`,
    ]);
    const events = await send(port, 'GET', `/runs/r1/events?token=${token}`, { host });
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('a state-changing request needs the token and this server as Origin; nothing sends CORS headers', async () => {
    const auth = { host, 'x-sluice-token': token };
    for (const origin of [undefined, 'http://evil.example', `http://127.0.0.1:${port + 1}`, 'null']) {
      const headers = origin === undefined ? auth : { ...auth, origin };
      const answer = await send(port, 'DELETE', '/runs/r1', headers);
      expect(answer.status).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await send(port, 'DELETE', '/runs/r1', { host, origin: `http://${host}` })).status).toBe(401);
    expect((await send(port, 'OPTIONS', '/runs/r1', { host, origin: 'http://evil.example' })).status).toBe(
      401,
    );
    expect(run.ended).toBe(false);
    // This server does not start runs (no `start`), even for its own page.
    expect((await send(port, 'POST', '/runs', { ...auth, origin: `http://${host}` })).status).toBe(405);
    const cancel = await send(port, 'DELETE', '/runs/r1', { ...auth, origin: `http://${host}` });
    expect(cancel.status).toBe(204);
    expect(run.ended).toBe(true);
  });

  it('sends the page with a strict Content-Security-Policy and no framing', async () => {
    const page = await send(port, 'GET', '/runs/r1', { host, 'x-sluice-token': token });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).toContain('<code>sleep forever</code>');
    expect((await send(port, 'GET', '/runs/nope', { host, 'x-sluice-token': token })).status).toBe(404);
  });
});

describe('a server bound to 0.0.0.0', () => {
  it('accepts any IP literal as Host (an address cannot be rebound) but no other name', async () => {
    const wide = await startWebServer({ registry, host: '0.0.0.0' });
    servers.push(wide);
    const port = Number(new URL(wide.origin).port);
    const auth = { 'x-sluice-token': wide.token };
    expect((await send(port, 'GET', '/', { ...auth, host: `10.1.2.3:${port}` })).status).toBe(200);
    expect((await send(port, 'GET', '/', { ...auth, host: `[::1]:${port}` })).status).toBe(200);
    expect((await send(port, 'GET', '/', { ...auth, host: `localhost:${port}` })).status).toBe(200);
    expect((await send(port, 'GET', '/', { ...auth, host: `printer.lan:${port}` })).status).toBe(403);
  });
});

describe('a server behind a load balancer', () => {
  it("accepts the balancer's host:port (that port only), and names the token cookie after the port the browser used", async () => {
    const behind = await startWebServer({ registry, allowedHosts: ['lb.example:443'] });
    servers.push(behind);
    const port = Number(new URL(behind.origin).port);
    const token = behind.token;
    const auth = { 'x-sluice-token': token };
    expect((await send(port, 'GET', '/', { ...auth, host: 'lb.example:443' })).status).toBe(200);
    expect((await send(port, 'GET', '/', { ...auth, host: `lb.example:${port}` })).status).toBe(403);
    expect((await send(port, 'GET', '/', { ...auth, host: 'lb.example' })).status).toBe(403);
    const first = await send(port, 'GET', `/runs/r1?token=${token}`, { host: 'lb.example:443' });
    expect(first.headers['set-cookie']).toEqual([`sluice-443=${token}; HttpOnly; SameSite=Strict; Path=/`]);
    const cookie = `sluice-443=${token}`;
    expect((await send(port, 'GET', '/runs/r1', { host: 'lb.example:443', cookie })).status).toBe(200);
    // Reached directly, the server's own port names the cookie: the balancer's is not it.
    expect((await send(port, 'GET', '/runs/r1', { host: `127.0.0.1:${port}`, cookie })).status).toBe(401);
  });
});

describe('createWebGuard options', () => {
  it('are checked by hand, naming the option', () => {
    expect(() => createWebGuard({ token: 'short', hosts: [], port: 1 })).toThrow(
      'Expected the `token` option to be a string of at least 16 characters, got `short` (string)',
    );
    expect(() => createWebGuard({ token: 'x'.repeat(16), hosts: [''], port: 1 })).toThrow(
      'Expected the `hosts` option to be an array of host names',
    );
    expect(() => createWebGuard({ token: 'x'.repeat(16), hosts: [], port: 0 })).toThrow(
      'Expected the `port` option to be a port number, got `0` (number)',
    );
    expect(() => createWebGuard({ token: 'x'.repeat(16), hosts: [], port: 1, cors: true } as never)).toThrow(
      'Unknown `cors` option',
    );
  });
});
