import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec } from '../../src/sources/exec.js';
import { markTerminalSize } from '../../src/web/mark-terminal-size.js';
import { RunRegistry } from '../../src/web/run-registry.js';
import { startWebServer } from '../../src/web/start-web-server.js';
import { launchChromium } from '../support/browser.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { CLI } from '../support/sluice-cli.js';
import { findBrowser, needs, requireTool } from '../support/system-tools.js';

const browserPath = requireTool(
  'a Chromium browser',
  findBrowser(),
  'apt-get install chromium, or set CHROMIUM_PATH to a Chromium/Chrome executable',
);
const scratch = mkdtempSync(join(tmpdir(), 'sluice-terminal-page-'));
const children: ChildProcess[] = [];
let browser: Browser;

beforeAll(async () => {
  if (browserPath !== undefined) browser = await launchChromium(browserPath);
  mkdirSync('test-artifacts', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * A colour progress bar that only a terminal gets: a cyan title line, then a green bar redrawn
 * with `\r` from 1 % to 50 %, a wait for the gate file (`$1`), 51 % to 100 %, and `done`.
 */
const PROGRESS = `
if [ -t 1 ]; then tty=True; else tty=False; fi
printf '\\033[36mbuilding\\033[0m tty=%s\\n' "$tty"
hashes=; dots=.........................
step() {
  if [ $(($1 % 4)) -eq 0 ]; then hashes="$hashes#"; dots=\${dots#.}; fi
  printf '\\r\\033[32m[%s%s]\\033[0m \\033[1m%3d%%\\033[0m' "$hashes" "$dots" "$1"
}
i=1; while [ $i -le 50 ]; do step $i; i=$((i + 1)); done
while [ ! -e "$1" ]; do sleep 0.02; done
while [ $i -le 100 ]; do step $i; i=$((i + 1)); done
printf '\\ndone\\n'
`;

/**
 * Starts `sluice <args>` as a user would; resolves with what `ready` captured on its stderr (at
 * once without `ready`).
 */
async function sluice(args: readonly string[], ready?: RegExp) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stdout?.resume();
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const found = await new Promise<string>((resolve, reject) => {
    if (ready === undefined) resolve('');
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
      const match = ready?.exec(stderr);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', () => reject(new Error(`sluice exited before it was ready: ${stderr}`)));
  });
  return { found, exit };
}

/** Opens `url` in `page`, again while it answers 404 (a run not yet in the store). */
async function open(page: Page, url: string): Promise<void> {
  for (let tries = 0; ; tries += 1) {
    const response = await page.goto(url);
    if (response?.status() !== 404 || tries === 100) break;
    await page.waitForTimeout(50);
  }
}

/** The terminal's rows as the page draws them (xterm.js's DOM renderer), trailing blanks cut. */
const rows = (page: Page) =>
  page.$$eval('#terminal .xterm-rows > div', (nodes) =>
    nodes.map((node) => (node.textContent ?? '').replaceAll('\u00a0', ' ').trimEnd()),
  );

/** Waits until a row of the page's terminal contains `text`. */
const showsRow = (page: Page, text: string) =>
  page.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('#terminal .xterm-rows > div')].some((row) =>
        (row.textContent ?? '').replaceAll('\u00a0', ' ').includes(wanted),
      ),
    text,
    { timeout: 20_000 },
  );

const BAR_50 = `[${'#'.repeat(12)}${'.'.repeat(13)}]  50%`;
const BAR_100 = `[${'#'.repeat(25)}] 100%`;

/**
 * The walk both tests take: a first tab sees the bar at 50 % while the program waits; a second tab
 * attached then shows the same screen; once the gate opens both show the bar once, at 100 %, in
 * colour, on a terminal of the run's size.
 */
async function checkTerminalPage(url: string, gate: string, screenshot: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 640 } });
  const refused: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error' && /Refused|Content Security Policy/.test(message.text())) {
      refused.push(message.text());
    }
  });
  const first = await context.newPage();
  await open(first, url);
  await showsRow(first, BAR_50);
  expect(await first.evaluate(() => document.body.dataset.view)).toBe('terminal');
  const midway = await rows(first);
  expect(midway.slice(0, 3)).toEqual(['building tty=True', BAR_50, '']);
  expect(midway).toHaveLength(24); // the run's terminal: 80 × 24 (sluice's output is no terminal)

  const second = await context.newPage();
  await open(second, url);
  await showsRow(second, BAR_50);
  expect(await rows(second)).toEqual(midway);

  writeFileSync(gate, '');
  for (const page of [first, second]) {
    await showsRow(page, 'done');
    await page.waitForFunction(() => document.body.dataset.ok === 'true');
    const screen = await rows(page);
    expect(screen.slice(0, 4)).toEqual(['building tty=True', BAR_100, 'done', '']);
    expect(screen.filter((row) => row.includes('%'))).toHaveLength(1);
  }
  // The bar is green and the title cyan, as the program drew them (the theme's colours).
  const colours = await first.$$eval('#terminal .xterm-rows span', (spans) =>
    Object.fromEntries(spans.map((span) => [span.textContent?.trim() ?? '', getComputedStyle(span).color])),
  );
  expect(colours.building).toBe('rgb(57, 197, 207)');
  expect(colours[`[${'#'.repeat(25)}]`]).toBe('rgb(63, 185, 80)');
  await first.screenshot({ path: `test-artifacts/${screenshot}` });
  expect(refused).toEqual([]); // no style or script refused by the page's policy
  await context.close();
}

describe.skipIf(browserPath === undefined || !needs('linux', 'script'))(
  'a terminal run on the live page (xterm.js)',
  () => {
    it('sluice exec --tty --web: the bar is one line; a tab attached midway shows the same screen', async () => {
      const gate = join(scratch, 'gate-web');
      const { found: url, exit } = await sluice(
        ['exec', '--tty', '--web', '--', 'sh', '-c', PROGRESS, 'progress', gate],
        /sluice: live page: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)\n/,
      );
      await checkTerminalPage(url, gate, 'terminal-page-web.png');
      expect(await exit).toBe(0);
    });
  },
);

describe.skipIf(browserPath === undefined || !needs('linux', 'script'))(
  'a terminal run of an app (sluice/web)',
  () => {
    it("resizes the page's terminal when the run's terminal is resized", async () => {
      const resize = new Subject<{ columns: number; rows: number }>();
      const tty = { columns: 80, rows: 24, resize };
      // Its size, and again at each resize (a resize may show half done first: stty sets the
      // columns, then the rows). It runs until the registry closes.
      const sizes = "trap 'stty size' WINCH; stty size; while :; do sleep 0.02; done";
      const registry = new RunRegistry();
      const events = exec('sh', ['-c', sizes], { tty, lines: false, reject: false }).pipe(
        markTerminalSize(tty),
      );
      registry.start(events, { command: 'sizes' });
      const server = await startWebServer({ registry });
      try {
        const page = await browser.newPage();
        await page.goto(server.url);
        await showsRow(page, '24 80');
        expect(await rows(page)).toHaveLength(24);
        resize.next({ columns: 100, rows: 30 });
        await showsRow(page, '30 100');
        await page.waitForFunction(
          () => document.querySelectorAll('#terminal .xterm-rows > div').length === 30,
        );
        const shown = (await rows(page)).filter((row) => row !== '');
        expect([shown[0], shown.at(-1)]).toEqual(['24 80', '30 100']);
        await page.close();
      } finally {
        await server.close();
        await registry.close();
      }
    });
  },
);

describe.skipIf(browserPath === undefined || redisServerPath === undefined || !needs('linux', 'script'))(
  'a terminal run published to Redis, on the page of sluice web',
  () => {
    const redis = redisForSuite();

    it('sluice exec --tty --redis, shown by sluice web: the same terminal view', async () => {
      const gate = join(scratch, 'gate-redis');
      const runId = `tty-${randomBytes(4).toString('hex')}`;
      const web = await sluice(['web', '--redis', redis.url], /run pages at (http:\/\/\S+)\n/);
      const { exit } = await sluice([
        ...['exec', '--tty', '--redis', redis.url, '--run-id', runId],
        ...['--', 'sh', '-c', PROGRESS, 'progress', gate],
      ]);
      const url = web.found.replace('<run-id>', runId);
      await checkTerminalPage(url, gate, 'terminal-page-redis.png');
      expect(await exit).toBe(0);
    });
  },
);
