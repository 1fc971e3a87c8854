import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveExecServer, startLiveExecServer } from '../../examples/live-exec/server.js';
import { groupGone, liveGroupMembers } from '../support/processes.js';
import { findBrowser, requireTool } from '../support/system-tools.js';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// 30 lines (every 4th also on stderr), then wait for the gate file, then 30 more.
const GATED = `
i=1; while [ $i -le 30 ]; do echo "out $i"; if [ $((i % 4)) -eq 0 ]; then echo "err $i" >&2; fi; i=$((i+1)); done
while [ ! -e "$1" ]; do sleep 0.02; done
while [ $i -le 60 ]; do echo "out $i"; if [ $((i % 4)) -eq 0 ]; then echo "err $i" >&2; fi; i=$((i+1)); done
`;

const browserPath = requireTool(
  'a Chromium browser',
  findBrowser(),
  'apt-get install chromium, or set CHROMIUM_PATH to a Chromium/Chrome executable',
);

let browser: Browser;
const servers: LiveExecServer[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'sluice-live-'));

beforeAll(async () => {
  if (browserPath !== undefined)
    browser = await chromium.launch({ executablePath: browserPath, args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const pageText = (page: Page, selector: string) =>
  page.$$eval(selector, (nodes) => nodes.map((node) => node.textContent ?? '').join(''));

describe.skipIf(browserPath === undefined)('examples/live-exec in headless chromium', () => {
  it('shows lines before the command exits and resumes after a server-side drop with no loss and no duplicate', async () => {
    const gate = join(scratch, 'gate');
    const server = await startLiveExecServer({ file: 'sh', args: ['-c', GATED, 'sh', gate], retryMs: 100 });
    servers.push(server);
    const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(server.url);

    // lines are on the page while the command is still running (blocked on the gate)
    await page.waitForFunction(() => document.querySelector('#out')?.textContent?.includes('out 30\n'));
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('running');
    const run = server.runs.get('1');
    expect(run?.result).toBeUndefined();
    expect(run?.stream.ended).toBe(false);

    // the server drops the connection mid-run; the command goes on while the page reconnects
    server.dropConnections();
    writeFileSync(gate, '');
    await page.waitForFunction(() => document.body.dataset.state !== 'running', undefined, {
      timeout: 30_000,
    });
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('exited');
    expect(await page.textContent('#status')).toBe('exited with code 0 after 75 lines');

    const result = run?.result;
    expect(result?.exitCode).toBe(0);
    expect(result?.stdout.split('\n').length).toBe(61);
    expect(await pageText(page, '#out .stdout')).toBe(result?.stdout);
    expect(await pageText(page, '#out .stderr')).toBe(result?.stderr);
    expect(server.resumes[0]).toBeUndefined();
    expect(server.resumes.length).toBeGreaterThanOrEqual(2);
    expect(Number(server.resumes.at(-1))).toBeGreaterThanOrEqual(36); // resumed after the 37 events (30 + 7 lines, sequences 0..36), not from 0

    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/live-exec.png' });
    await page.close();
  });

  it('Cancel kills the process group and the page shows the cancelled sentinel', async () => {
    const server = await startLiveExecServer({
      file: 'sh',
      args: ['-c', 'echo "pid $$"; echo "children started" >&2; sleep 300 & sleep 300 & wait'],
    });
    servers.push(server);
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() =>
      document.querySelector('#out')?.textContent?.includes('children started'),
    );
    const pgid = Number(/pid (\d+)/.exec((await page.textContent('#out')) ?? '')?.[1]);
    expect(pgid).toBeGreaterThan(1);
    const members = execFileSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(members.length).toBe(3); // sh and its two sleeps

    await page.click('#cancel');
    await page.waitForFunction(() => document.body.dataset.state === 'cancelled', undefined, {
      timeout: 30_000,
    });
    expect(await page.textContent('#status')).toBe('cancelled after 2 lines');
    expect(await groupGone(pgid, 15_000)).toBe(true);
    expect(liveGroupMembers(pgid)).toEqual([]); // and `ps` agrees
    expect(server.runs.get('1')?.stream.ended).toBe(true);
    await page.close();
  });
});
