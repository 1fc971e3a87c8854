import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SseMessage } from '../../src/runs/sse/sse-parser.js';
import { launchChromium } from '../support/browser.js';
import { fixture, pollUntil, processesWithTag } from '../support/processes.js';
import { readSse } from '../support/read-sse.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { CLI } from '../support/sluice-cli.js';
import { findBrowser, requireTool } from '../support/system-tools.js';

const ticker = fixture('redis-ticker.py');
const TOKEN = `shared-${randomBytes(12).toString('hex')}`;
const browserPath = requireTool(
  'a Chromium browser',
  findBrowser(),
  'apt-get install chromium, or set CHROMIUM_PATH to a Chromium/Chrome executable',
);
const children: ChildProcess[] = [];

/** Starts `sluice <args>` as a user would; resolves once its stderr matched `ready` (the URL it prints). */
async function sluice(args: readonly string[], ready: RegExp) {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SLUICE_WEB_TOKEN: TOKEN },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
      const found = ready.exec(stderr);
      if (found) resolve(found[1] as string);
    });
    child.once('exit', () => reject(new Error(`sluice exited before it was ready: ${stderr}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { url, origin: new URL(url).origin, exit, child, output: () => ({ stdout, stderr }) };
}

/** A round-robin HTTP load balancer in front of `backends` (set later): each request goes to the next one. */
async function loadBalancer(backends: string[]): Promise<{ origin: string; server: Server }> {
  let next = 0;
  const server = createServer((req, res) => {
    const target = new URL(backends[next++ % backends.length] as string);
    const proxied = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on('error', () => res.destroy());
    res.on('close', () => proxied.destroy());
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Reads SSE messages with the token until `enough` says stop or the stream ends (status 200). */
async function readSseMessages(
  url: string,
  headers: Record<string, string>,
  enough: (messages: SseMessage[]) => boolean = () => false,
): Promise<SseMessage[]> {
  const { status, messages } = await readSse(url, { 'x-sluice-token': TOKEN, ...headers }, enough);
  expect(status).toBe(200);
  return messages;
}

const LIVE_PAGE = /sluice: live page: (http:\/\/\S+)\n/;
const RUN_PAGES = /sluice web: run pages at (http:\/\/\S+)\n/;

describe.skipIf(redisServerPath === undefined)(
  'sluice exec --web --redis and sluice web: two servers, one Redis',
  () => {
    const redis = redisForSuite();
    let browser: Browser | undefined;
    beforeAll(async () => {
      if (browserPath !== undefined) browser = await launchChromium(browserPath);
    });
    afterAll(async () => {
      await browser?.close();
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });

    it('the other server shows the run, resumes a viewer exactly, and its DELETE ends the run where it runs', async () => {
      const tag = `web-redis-${randomBytes(4).toString('hex')}`;
      const runId = `build-${tag}`;
      const owner = await sluice(
        [
          'exec',
          '--web',
          '--redis',
          redis.url,
          '--run-id',
          runId,
          '--',
          'python3',
          ticker,
          '100000',
          '0.005',
          tag,
        ],
        LIVE_PAGE,
      );
      expect(owner.url).toBe(`${owner.origin}/runs/${runId}?token=${TOKEN}`);
      const other = await sluice(['web', '--redis', redis.url], RUN_PAGES);
      expect(other.url).toBe(`${other.origin}/runs/<run-id>?token=${TOKEN}`);

      const page = await fetch(`${other.origin}/runs/${runId}?token=${TOKEN}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`python3 ${ticker} 100000 0.005 ${tag}`);

      const first = await readSseMessages(
        `${owner.origin}/runs/${runId}/events`,
        {},
        (got) => got.length >= 50,
      );
      const last = Number(first.at(-1)?.lastEventId);
      const second = await readSseMessages(
        `${other.origin}/runs/${runId}/events`,
        { 'last-event-id': String(last) },
        (got) => got.length >= 50,
      );
      const seen = [...first, ...second].map((message) => Number(message.lastEventId));
      expect(seen).toEqual(Array.from({ length: seen.length }, (_, sequence) => sequence));
      expect(second[0]?.data).toContain(`"content":"tick ${last + 1}\\n"`);

      const answer = await fetch(`${other.origin}/runs/${runId}`, {
        method: 'DELETE',
        headers: { 'x-sluice-token': TOKEN, origin: other.origin },
      });
      expect(answer.status).toBe(204);
      expect(await owner.exit).toBe(130);
      expect(owner.output().stderr).toMatch(/: cancelled · /);
      expect(await pollUntil(() => processesWithTag(tag).length === 0, 10_000)).toBe(true);
      const tail = await readSseMessages(`${other.origin}/runs/${runId}/events`, {
        'last-event-id': String(last),
      });
      expect(JSON.parse(tail.at(-1)?.data ?? '{}')).toMatchObject({
        kind: 'end',
        metadata: { reason: 'cancelled', by: 'page' },
      });
      other.child.kill('SIGTERM');
      expect(await other.exit).toBe(0);
    });

    it('an owner killed with SIGKILL: viewers on the other server (and its page) get OWNER_LOST once its lease expires', async () => {
      const tag = `web-redis-lost-${randomBytes(4).toString('hex')}`;
      const runId = `lost-${tag}`;
      const owner = await sluice(
        [
          'exec',
          '--web',
          '--redis',
          redis.url,
          '--run-id',
          runId,
          '--',
          'python3',
          ticker,
          '100000',
          '0.02',
          tag,
        ],
        LIVE_PAGE,
      );
      const other = await sluice(['web', '--redis', redis.url], RUN_PAGES);
      const viewer = readSseMessages(`${other.origin}/runs/${runId}/events`, {});
      // sluice and the command it runs (both have the tag in their command line)
      expect(await pollUntil(() => processesWithTag(tag).length === 2, 20_000)).toBe(true);
      // The run's page on the other server, in Chromium too (where there is one).
      const page = await browser?.newPage();
      try {
        await page?.goto(`${other.origin}/runs/${runId}?token=${TOKEN}`);
        await page?.waitForFunction(() => /tick 5\b/.test(document.querySelector('#log')?.textContent ?? ''));
        owner.child.kill('SIGKILL');
        const killedAt = performance.now();
        const messages = await viewer; // the lease (10 s by default), then the next XREAD timeout
        const waited = performance.now() - killedAt;
        const end = messages.at(-1);
        expect(end?.event).toBe('failure');
        expect(JSON.parse(end?.data ?? '{}')).toMatchObject({ code: 'OWNER_LOST', name: 'OwnerLostError' });
        console.log(
          `[web-redis] owner SIGKILLed → OWNER_LOST on the other server after ${(waited / 1000).toFixed(1)} s`,
        );
        if (page !== undefined) {
          await page.waitForFunction(() => document.body.dataset.state === 'failed', undefined, {
            timeout: 30_000,
          });
          expect(await page.textContent('#end')).toMatch(
            /^Lost: what ran the command stopped renewing its lease/,
          );
        }
        // The command, orphaned, dies on its broken pipe at its next line.
        expect(await pollUntil(() => processesWithTag(tag).length === 0, 10_000)).toBe(true);
      } finally {
        await page?.close();
      }
      other.child.kill('SIGTERM');
      expect(await other.exit).toBe(0);
    }, 60_000);

    it.skipIf(browserPath === undefined)(
      'behind a round-robin load balancer: the page follows the run across both servers and its Cancel ends it',
      async () => {
        const backends: string[] = [];
        const balancer = await loadBalancer(backends);
        const lbHost = new URL(balancer.origin).host;
        const tag = `web-redis-lb-${randomBytes(4).toString('hex')}`;
        const runId = `lb-${tag}`;
        const owner = await sluice(
          [
            'exec',
            '--web',
            '--redis',
            redis.url,
            '--run-id',
            runId,
            '--allow-host',
            lbHost,
            '--',
            'python3',
            ticker,
            '100000',
            '0.01',
            tag,
          ],
          LIVE_PAGE,
        );
        const other = await sluice(['web', '--redis', redis.url, '--allow-host', lbHost], RUN_PAGES);
        backends.push(owner.origin, other.origin);
        const page = await (browser as Browser).newPage();
        try {
          await page.goto(`${balancer.origin}/runs/${runId}?token=${TOKEN}`);
          await page.waitForFunction(() =>
            /tick 20\b/.test(document.querySelector('#log')?.textContent ?? ''),
          );
          expect(await page.evaluate(() => document.body.dataset.state)).toBe('running');
          await page.click('#cancel');
          await page.waitForFunction(() => document.body.dataset.state === 'cancelled', undefined, {
            timeout: 30_000,
          });
          expect(await page.textContent('#end')).toMatch(/^Cancelled from this page/);
          expect(await owner.exit).toBe(130);
          expect(await pollUntil(() => processesWithTag(tag).length === 0, 10_000)).toBe(true);
        } finally {
          await page.close();
          other.child.kill('SIGTERM');
          balancer.server.closeAllConnections();
          balancer.server.close();
        }
        expect(await other.exit).toBe(0);
      },
    );
  },
);
