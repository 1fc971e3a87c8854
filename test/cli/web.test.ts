import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { groupGone, liveGroupMembers } from '../support/processes.js';
import { CLI } from '../support/sluice-cli.js';
import { findBrowser, needs, requireTool } from '../support/system-tools.js';

const browserPath = requireTool(
  'a Chromium browser',
  findBrowser(),
  'apt-get install chromium, or set CHROMIUM_PATH to a Chromium/Chrome executable',
);
const scratch = mkdtempSync(join(tmpdir(), 'sluice-cli-web-'));
let browser: Browser;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (browserPath !== undefined) browser = await launchChromium(browserPath);
});
afterAll(async () => {
  await browser?.close();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** Starts `sluice exec --web -- sh -c <script>` as a user would; resolves once it printed its URL. */
async function sluiceWeb(script: string, ...args: string[]) {
  const child = spawn(process.execPath, [CLI, 'exec', '--web', '--', 'sh', '-c', script, 'sh', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
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
      const found = /sluice: live page: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)\n/.exec(stderr);
      if (found) resolve(found[1] as string);
    });
    child.once('exit', () => reject(new Error(`sluice exited before printing its URL: ${stderr}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { url, exit, output: () => ({ stdout, stderr }), child };
}

const waitForEnd = (page: Page) =>
  page.waitForFunction(
    () => !['loading', 'connecting', 'running', 'cancelling'].includes(document.body.dataset.state ?? ''),
    undefined,
    { timeout: 30_000 },
  );

describe.skipIf(browserPath === undefined || !needs('linux', 'ps'))('sluice exec --web', () => {
  it('runs the command as exec does and serves its live page; the page sees the exit, sluice mirrors the code', async () => {
    const gate = join(scratch, 'gate');
    const { url, exit, output } = await sluiceWeb(
      'echo one; echo two >&2; while [ ! -e "$1" ]; do sleep 0.02; done; echo three; exit 3',
      gate,
    );
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('two'));
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('running');
    writeFileSync(gate, '');
    await waitForEnd(page);
    expect(await page.textContent('#state')).toBe('exit 3');
    expect(await exit).toBe(3);
    expect(output().stdout).toBe('one\nthree\n');
    expect(output().stderr).toMatch(/^sluice: live page: .*\ntwo\nsluice: sh -c .*: exit 3 · /);
    await page.close();
  });

  it("the page's Cancel kills the group: sluice says so and exits 130", async () => {
    const { url, exit, output } = await sluiceWeb('echo "pid $$"; sleep 300 & sleep 300 & wait');
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => /pid \d+/.test(document.querySelector('#log')?.textContent ?? ''));
    const pgid = Number(/pid (\d+)/.exec((await page.textContent('#log')) ?? '')?.[1]);
    expect(liveGroupMembers(pgid).length).toBe(3);
    await page.click('#cancel');
    await waitForEnd(page);
    expect(await page.textContent('#end')).toMatch(/^Cancelled from this page/);
    expect(await exit).toBe(130);
    expect(await groupGone(pgid, 15_000)).toBe(true);
    expect(output().stderr).toMatch(/: cancelled · /);
    await page.close();
  });

  it('Ctrl-C in the terminal ends the run, and the page says it was cancelled from the terminal', async () => {
    const { url, exit, child } = await sluiceWeb('echo "pid $$"; sleep 300');
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => /pid \d+/.test(document.querySelector('#log')?.textContent ?? ''));
    const pgid = Number(/pid (\d+)/.exec((await page.textContent('#log')) ?? '')?.[1]);
    child.kill('SIGINT');
    await waitForEnd(page);
    expect(await page.textContent('#end')).toMatch(/^Cancelled from the terminal/);
    expect(await exit).toBe(130);
    expect(await groupGone(pgid, 15_000)).toBe(true);
    await page.close();
  });
});
