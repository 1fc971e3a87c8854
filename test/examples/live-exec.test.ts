import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { findBrowser, requireTool } from '../support/system-tools.js';

const main = fileURLToPath(new URL('../../examples/live-exec/main.ts', import.meta.url));
const browserPath = requireTool(
  'a Chromium browser',
  findBrowser(),
  'apt-get install chromium, or set CHROMIUM_PATH to a Chromium/Chrome executable',
);
let browser: Browser;
let example: ChildProcess | undefined;

beforeAll(async () => {
  if (browserPath !== undefined) browser = await launchChromium(browserPath);
});
afterAll(async () => {
  await browser?.close();
  if (example !== undefined && example.exitCode === null) {
    const exited = new Promise((resolve) => example?.once('exit', resolve));
    example.kill('SIGTERM'); // the example cancels its runs (their process groups) and exits
    await exited;
  }
});

describe.skipIf(browserPath === undefined)('examples/live-exec', () => {
  it('serves the run page; "Run again" starts another run, up to its limit', async () => {
    example = spawn(process.execPath, ['--import', 'tsx', main, 'sh', '-c', 'echo "run $$"; sleep 300'], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve) => {
      let out = '';
      example?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk;
        const found = /open (\S+) /.exec(out);
        if (found) resolve(found[1] as string);
      });
    });
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => /run \d+/.test(document.querySelector('#log')?.textContent ?? ''));
    const firstRun = await page.evaluate(() => document.body.dataset.run);
    await page.click('#cancel');
    await page.waitForFunction(() => document.body.dataset.state === 'cancelled');

    await page.click('#again');
    await page.waitForURL((next) => next.pathname !== '/' && !next.pathname.endsWith(`/${firstRun}`));
    await page.waitForFunction(() => /run \d+/.test(document.querySelector('#log')?.textContent ?? ''));
    expect(await page.evaluate(() => document.body.dataset.run)).not.toBe(firstRun);

    // The page's own POSTs carry its cookie and Origin; past 4 running runs the server says 429.
    const statuses = await page.evaluate(async () => {
      const answers: number[] = [];
      for (let index = 0; index < 4; index += 1)
        answers.push((await fetch('/runs', { method: 'POST' })).status);
      return answers;
    });
    expect(statuses).toEqual([201, 201, 201, 429]);
    await page.close();
  });
});
