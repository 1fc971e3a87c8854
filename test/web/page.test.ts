import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec } from '../../src/sources/exec.js';
import type { RegistryEntry } from '../../src/web/registry-entry.js';
import { RunRegistry } from '../../src/web/run-registry.js';
import { startWebServer, type WebServer } from '../../src/web/start-web-server.js';
import { launchChromium } from '../support/browser.js';
import { groupGone, liveGroupMembers, pollUntil } from '../support/processes.js';
import { findBrowser, needs, requireTool } from '../support/system-tools.js';

const browserPath = requireTool(
  'a Chromium browser',
  findBrowser(),
  'apt-get install chromium, or set CHROMIUM_PATH to a Chromium/Chrome executable',
);

let browser: Browser;
const scratch = mkdtempSync(join(tmpdir(), 'sluice-web-page-'));
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  if (browserPath !== undefined) {
    // rebind.test resolves to 127.0.0.1, as a DNS rebinding attack would make it.
    browser = await launchChromium(browserPath, ['--host-resolver-rules=MAP rebind.test 127.0.0.1']);
  }
  mkdirSync('test-artifacts', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** A registry and its server; `command` runs through `sh -c` with a unique tag as `$0`. */
async function serve(
  script: string,
  options: { replay?: { maxEvents: number }; args?: string[] } = {},
): Promise<{ server: WebServer; registry: RunRegistry; run: RegistryEntry; tag: string }> {
  const tag = `sluice-web-${randomBytes(4).toString('hex')}`;
  const registry = new RunRegistry(options.replay ? { replay: options.replay } : {});
  const run = registry.start(exec('sh', ['-c', script, tag, ...(options.args ?? [])], { reject: false }), {
    command: `sh -c '…' ${tag}`,
  });
  const server = await startWebServer({ registry });
  cleanups.push(
    () => server.close(),
    () => registry.close(),
  );
  return { server, registry, run, tag };
}

/**
 * The group leaders among the processes whose command line holds `tag`: the runs' own processes (each leads its group). A shell forking a
 * command shows its tag for a moment in a process that is no leader.
 */
const leaders = (tag: string) =>
  execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(tag) && !line.includes('ps -eo'))
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([pid, pgid]) => pid === pgid)
    .map(([pid]) => pid);

/** The lines the pane shows (it holds runs of lines: `.out`, `.err`, `.gap` elements). */
const lineTexts = (page: Page, selector = '#log > div') =>
  page.$$eval(selector, (nodes) => nodes.flatMap((node) => (node.textContent ?? '').split('\n')));

const state = (page: Page) => page.evaluate(() => document.body.dataset.state);

const waitForEnd = (page: Page) =>
  page.waitForFunction(
    () => !['loading', 'connecting', 'running', 'cancelling'].includes(document.body.dataset.state ?? ''),
    undefined,
    { timeout: 30_000 },
  );

/** WCAG 2 contrast ratio of two computed CSS colours (`rgb(r, g, b)`). */
function contrastRatio(one: string, two: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(one), luminance(two)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

// 30 lines (every 4th also on stderr), then wait for the gate file, then 30 more.
const GATED = `
i=1; while [ $i -le 30 ]; do echo "out $i"; if [ $((i % 4)) -eq 0 ]; then echo "err $i" >&2; fi; i=$((i+1)); done
while [ ! -e "$1" ]; do sleep 0.02; done
while [ $i -le 60 ]; do echo "out $i"; if [ $((i % 4)) -eq 0 ]; then echo "err $i" >&2; fi; i=$((i+1)); done
`;

describe.skipIf(browserPath === undefined || !needs('linux', 'ps'))(
  'the run page in headless Chromium',
  () => {
    it('shows lines live; a reload and a second tab reattach to the same run, every line once, no new process', async () => {
      const gate = join(scratch, 'gate-1');
      const { server, registry, run, tag } = await serve(GATED, { args: [gate] });
      const context = await browser.newContext({ viewport: { width: 1000, height: 640 } });
      const missing: string[] = [];
      context.on('response', (response) => {
        if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`);
      });
      const page = await context.newPage();
      await page.goto(server.url);

      // Lines are on the page while the command is still running (blocked on the gate).
      await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('out 30'));
      expect(await state(page)).toBe('running');
      expect(run.ended).toBe(false);
      const pids = leaders(tag);
      expect(pids.length).toBeGreaterThan(0);
      await page.screenshot({ path: 'test-artifacts/web-page-running.png' });

      // A reload mid-run shows the same run from the start, each line once; nothing new started.
      await page.reload();
      await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('out 30'));
      const first30 = [
        ...Array.from({ length: 30 }, (_, i) => `out ${i + 1}`),
        ...Array.from({ length: 7 }, (_, i) => `err ${(i + 1) * 4}`),
      ].sort();
      expect((await lineTexts(page)).sort()).toEqual(first30);
      expect(registry.size).toBe(1);
      expect(leaders(tag)).toEqual(pids);

      // A second tab (the page's URL without the token: the cookie carries it) shows the same run.
      const second = await context.newPage();
      await second.goto(`${server.origin}/runs/${run.id}`);
      await second.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('out 30'));
      expect((await lineTexts(second)).sort()).toEqual(first30);
      expect(await second.title()).toContain(tag);

      writeFileSync(gate, '');
      await waitForEnd(page);
      await waitForEnd(second);
      const all = [
        ...Array.from({ length: 60 }, (_, i) => `out ${i + 1}`),
        ...Array.from({ length: 15 }, (_, i) => `err ${(i + 1) * 4}`),
      ].sort();
      for (const view of [page, second]) {
        expect(await state(view)).toBe('exited');
        expect(await view.textContent('#state')).toBe('exit 0');
        expect(await view.textContent('#end')).toMatch(
          /^Exited with code 0 after [\d.]+m?s (?:· cpu [^·]+ )?· 75 lines · 514 B$/,
        );
        expect((await lineTexts(view)).sort()).toEqual(all);
        expect((await lineTexts(view, '#log > .err')).length).toBe(15);
        expect(await view.isHidden('#cancel')).toBe(true);
      }
      await page.screenshot({ path: 'test-artifacts/web-page-exited.png' });

      // The full log downloads with the cookie, in order of arrival.
      const download = await page.request.get(`${server.origin}/runs/${run.id}/log`);
      expect(download.status()).toBe(200);
      expect(download.headers()['content-disposition']).toBe(`attachment; filename="sluice-${run.id}.log"`);
      expect((await download.text()).split('\n').filter(Boolean).sort()).toEqual(all);
      expect(missing).toEqual([]); // no 404 (favicon included)
      await context.close();
    });

    it('keeps the last line in view above the end-of-run footer when a run ends right after it', async () => {
      // The run waits until the page follows it (a first line shown), then writes 120 lines (stderr lines between them)
      // and exits 1 at once: the last lines and the end arrive together.
      const gate = join(scratch, 'gate-footer');
      const { server } = await serve(
        `echo started; while [ ! -e "$1" ]; do sleep 0.02; done
i=1; while [ $i -le 120 ]; do echo "out $i"; if [ $((i % 5)) -eq 0 ]; then echo "err $i" >&2; fi; i=$((i+1)); done
exit 1`,
        { args: [gate] },
      );
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.goto(server.url);
      await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('started'));
      writeFileSync(gate, '');
      await waitForEnd(page);
      expect(await page.textContent('#state')).toBe('exit 1');
      // What a viewer sees once the page has drawn the end: what is on top at the last line.
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      const seen = await page.evaluate(() => {
        const log = document.querySelector('#log') as HTMLElement;
        const last = log.lastElementChild as HTMLElement;
        const text = last.lastChild as Text;
        const range = document.createRange();
        range.setStart(text, text.data.lastIndexOf('\n') + 1);
        range.setEnd(text, text.data.length);
        const line = range.getBoundingClientRect();
        const onTop = document.elementFromPoint(line.left + 2, line.top + line.height / 2);
        const footer = (document.querySelector('#end') as HTMLElement).getBoundingClientRect();
        return {
          text: range.toString(),
          onTop:
            onTop === null ? 'nothing' : log.contains(onTop) ? 'the log' : `#${onTop.id || onTop.tagName}`,
          lineBottom: line.bottom,
          footerTop: footer.top,
          logBottom: log.getBoundingClientRect().bottom,
        };
      });
      expect(seen.text).toMatch(/^(out|err) 120$/); // two pipes: either may come last
      expect(seen.onTop).toBe('the log');
      expect(seen.lineBottom).toBeLessThanOrEqual(seen.footerTop);
      expect(seen.lineBottom).toBeLessThanOrEqual(seen.logBottom);
      await page.screenshot({ path: 'test-artifacts/web-page-footer.png' });
      await page.close();
    });

    it('resumes after the server drops its connection mid-run: no line lost, none twice', async () => {
      const gate = join(scratch, 'gate-drop');
      const { server, run } = await serve(GATED, { args: [gate] });
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('out 30'));
      run.disconnectViewers(); // the page reconnects with Last-Event-ID
      writeFileSync(gate, '');
      await waitForEnd(page);
      const all = [
        ...Array.from({ length: 60 }, (_, i) => `out ${i + 1}`),
        ...Array.from({ length: 15 }, (_, i) => `err ${(i + 1) * 4}`),
      ].sort();
      expect((await lineTexts(page)).sort()).toEqual(all);
      expect(await page.textContent('#lines')).toBe('75 lines');
      await page.close();
    });

    it('Cancel kills the process group; this page says so, and another tab says who', async () => {
      const { server, run } = await serve(
        'echo "pid $$"; echo "children started" >&2; sleep 300 & sleep 300 & wait',
      );
      const context = await browser.newContext();
      const page = await context.newPage();
      const other = await context.newPage();
      await page.goto(server.url);
      await other.goto(server.url);
      await page.waitForFunction(() =>
        document.querySelector('#log')?.textContent?.includes('children started'),
      );
      const pgid = Number(/pid (\d+)/.exec((await page.textContent('#log')) ?? '')?.[1]);
      expect(liveGroupMembers(pgid).length).toBe(3); // sh and its two sleeps

      await page.click('#cancel');
      await waitForEnd(page);
      expect(await state(page)).toBe('cancelled');
      expect(await page.textContent('#end')).toMatch(/^Cancelled from this page · 2 lines · \d+ B$/);
      expect(await groupGone(pgid, 15_000)).toBe(true);
      expect(liveGroupMembers(pgid)).toEqual([]);
      expect(run.ended).toBe(true);
      await waitForEnd(other);
      expect(await other.textContent('#end')).toMatch(/^Cancelled from another page/);
      await context.close();
    });

    it('renders ANSI colours as styled elements, ends a \\r progress line as one line, wraps long lines', async () => {
      const long = 'x'.repeat(600);
      const { server } = await serve(
        `printf '\\033[31mred\\033[0m plain \\033[1;32mbold green\\033[0m\\n'; printf '10%%\\r50%%\\r100%%\\n'; echo ${long}`,
      );
      const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
      await page.goto(server.url);
      await waitForEnd(page);
      const red = await page.$eval('#log .ansi-red-fg', (node) => ({
        text: node.textContent,
        color: getComputedStyle(node).color,
      }));
      expect(red).toEqual({ text: 'red', color: 'rgb(255, 123, 114)' });
      const texts = await lineTexts(page);
      expect(texts).toEqual(['red plain bold green', '100%', long]);
      expect(texts.join('')).not.toContain('\x1b');
      expect(await page.$eval('#log .ansi-green-fg', (node) => node.getAttribute('style'))).toBe(
        'font-weight:bold',
      );
      const { overflow, rows } = await page.$eval('#log', (log) => ({
        overflow: log.scrollWidth - log.clientWidth,
        rows:
          (log.firstElementChild as HTMLElement).offsetHeight /
          Number.parseFloat(getComputedStyle(log).lineHeight),
      }));
      expect(overflow).toBe(0); // no sideways scrolling
      expect(rows).toBeGreaterThanOrEqual(7); // 3 lines, the 600 characters wrapped over 5 or more at 800 px
      await page.close();
    });

    it('takes the token out of the address bar once the cookie holds it; a reload still works', async () => {
      const { server } = await serve('echo hello');
      expect(new URL(server.url).searchParams.get('token')).toBe(server.token);
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(server.url);
      await waitForEnd(page);
      const address = new URL(page.url());
      expect(address.searchParams.has('token')).toBe(false);
      expect(address.pathname).toBe(new URL(server.url).pathname);
      expect((await context.cookies()).map((cookie) => cookie.value)).toContain(server.token);
      await page.reload();
      await waitForEnd(page);
      expect(await lineTexts(page)).toEqual(['hello']);
      await context.close();
    });

    it('renders ANSI black and white text readably on every background (WCAG contrast of the computed colours)', async () => {
      // One line per pair: the SGR codes, then the text. 30/37/97 black/white, 39 the default colour.
      const backgrounds = [40, 41, 42, 43, 44, 45, 46, 47, 100, 101, 102, 103, 104, 105, 106, 107];
      const pairs = [
        ...backgrounds.flatMap((bg) => [30, 37, 97, 39].map((fg) => `${bg};${fg}`)),
        '30', // black text on the dark pane itself
      ];
      const script = pairs.map((sgr) => `printf '\\033[${sgr}m${sgr}\\033[0m\\n'`).join('; ');
      const { server } = await serve(script);
      const page = await browser.newPage();
      await page.goto(server.url);
      await waitForEnd(page);
      const measured = await page.$$eval('#log span', (spans) =>
        spans.map((span) => {
          const style = getComputedStyle(span);
          let background = style.backgroundColor;
          for (
            let node: Element | null = span;
            background === 'rgba(0, 0, 0, 0)' && node;
            node = node.parentElement
          ) {
            background = getComputedStyle(node).backgroundColor;
          }
          if (background === 'rgba(0, 0, 0, 0)') background = getComputedStyle(document.body).backgroundColor;
          return { sgr: span.textContent ?? '', color: style.color, background };
        }),
      );
      const contrast = new Map(
        measured.map(({ sgr, color, background }) => [sgr, contrastRatio(color, background)]),
      );
      expect([...contrast.keys()].sort()).toEqual([...pairs].sort());
      // The case users met: black on green (test runners' PASS badges), about 1:1 before.
      expect(contrast.get('42;30')).toBeGreaterThanOrEqual(4.5);
      const unreadable = pairs.filter((sgr) => {
        const [bg, fg] = sgr.split(';').map(Number);
        // What a terminal shows as invisible too: black on black, white on white.
        if ((bg === 40 || bg === 100) && fg === 30) return false;
        if ((bg === 47 || bg === 107) && (fg === 37 || fg === 97)) return false;
        const needed = fg === undefined ? 3 : 4.5; // grey on the pane: visible, dimmed as terminals do
        return (contrast.get(sgr) ?? 0) < needed;
      });
      expect(unreadable.map((sgr) => `${sgr}: ${contrast.get(sgr)?.toFixed(2)}`)).toEqual([]);
      await page.close();
    });

    it('keeps the DOM bounded (the last 5,000 lines) while counting every line, rendering at most once a frame', async () => {
      const { server } = await serve('seq 1 20000');
      const page = await browser.newPage();
      // Counts the tasks in which the pane changed (one MutationObserver callback each), and those
      // of them that were not an animation frame's.
      await page.addInitScript(`
      window.__renders = 0; window.__outside = 0;
      let inFrame = false;
      const raf = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (callback) => raf((time) => {
        inFrame = true;
        setTimeout(() => { inFrame = false; });
        callback(time);
      });
      document.addEventListener('DOMContentLoaded', () => {
        new MutationObserver(() => {
          window.__renders += 1;
          if (!inFrame) window.__outside += 1;
        }).observe(document.querySelector('#log'), { childList: true, subtree: true, characterData: true });
      });
    `);
      await page.goto(server.url);
      await waitForEnd(page);
      const { renders, outside } = (await page.evaluate(
        '({ renders: window.__renders, outside: window.__outside })',
      )) as {
        renders: number;
        outside: number;
      };
      expect(renders).toBeGreaterThan(0);
      expect(outside).toBeLessThanOrEqual(1); // only the last render, when the run ends
      const texts = await lineTexts(page);
      expect(texts.length).toBe(5000);
      expect(texts[0]).toBe('15001');
      expect(texts.at(-1)).toBe('20000');
      expect(await page.textContent('#lines')).toBe('20,000 lines');
      expect(await page.textContent('#trimmed')).toBe(
        '15,000 earlier lines are not shown here — download the full log',
      );
      await page.close();
    });

    it('shows a gap when the replay log no longer holds the start, then goes on', async () => {
      const gate = join(scratch, 'gate-gap');
      const { server, run, registry } = await serve(
        'seq 1 200; while [ ! -e "$1" ]; do sleep 0.02; done; echo after',
        {
          replay: { maxEvents: 50 },
          args: [gate],
        },
      );
      // The 200 lines pass through the 50-event log before anyone looks.
      expect(await pollUntil(() => registry.config.ownStore?.log(run.id)?.next === 200, 10_000)).toBe(true);
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('200'));
      const texts = await lineTexts(page);
      expect(texts[0]).toBe(
        '⋯ 150 events skipped: the server no longer holds them (the full log has everything)',
      );
      expect(texts.slice(1)).toEqual(Array.from({ length: 50 }, (_, i) => String(151 + i)));
      writeFileSync(gate, '');
      await waitForEnd(page);
      expect(await page.textContent('#lines')).toBe('201 lines');
      expect((await lineTexts(page)).at(-1)).toBe('after');
      await page.close();
    });

    it('says the server is gone when it goes away mid-run', async () => {
      const { server } = await serve('echo started; sleep 300');
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('started'));
      await server.close();
      await waitForEnd(page);
      expect(await state(page)).toBe('gone');
      expect(await page.textContent('#end')).toBe('Connection lost: the server is gone · 1 line · 8 B');
      await page.close();
    });

    it('refuses a cross-origin POST and DELETE (even with the cookie) and a foreign Host', async () => {
      const { server, run } = await serve('echo started; sleep 300');
      const seen: Array<[string, string, number]> = [];
      server.server.on('request', (req, res) => {
        res.on('finish', () => seen.push([req.method ?? '', req.headers.origin ?? '', res.statusCode]));
      });
      // Another origin on the same host (cookies are per host: this browser sends the token cookie).
      const evil: Server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><body>
        <form id="f" method="POST" action="${server.origin}/runs"></form>
        <script>
          fetch('${server.origin}/runs/${run.id}', { method: 'DELETE', credentials: 'include' }).catch(() => {});
          fetch('${server.origin}/runs/${run.id}', { method: 'POST', mode: 'no-cors', credentials: 'include' }).catch(() => {});
          setTimeout(() => document.getElementById('f').submit(), 300);
        </script></body>`);
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => evil.close(resolve)));
      const evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;

      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(server.url); // the cookie is set
      await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('started'));
      const attacker = await context.newPage();
      await attacker.goto(evilOrigin);
      await pollUntil(() => seen.filter(([, origin]) => origin === evilOrigin).length >= 3, 10_000);
      const fromEvil = seen.filter(([, origin]) => origin === evilOrigin);
      // The DELETE's preflight (OPTIONS, which carries no cookie) is refused, so the DELETE itself
      // is never sent; the POSTs carry the cookie and are refused for their Origin.
      expect(fromEvil.map(([method, , status]) => `${method} ${status}`).sort()).toEqual([
        'OPTIONS 401',
        'POST 403',
        'POST 403',
      ]);
      expect(run.ended).toBe(false);
      expect(await state(page)).toBe('running');

      // DNS rebinding: the attacker's name resolves to 127.0.0.1, but Host names it. (A page of its
      // own: the attacker's is busy with its form's navigation.)
      const port = new URL(server.origin).port;
      const rebinder = await context.newPage();
      const rebound = await rebinder.goto(`http://rebind.test:${port}${new URL(server.url).search}`);
      expect(rebound?.status()).toBe(403);
      expect(await rebinder.textContent('body')).toContain('DNS rebinding');
      const asset = await rebinder.goto(`http://rebind.test:${port}/assets/page.js`);
      expect(asset?.status()).toBe(403);
      expect(rebound?.headers()['access-control-allow-origin']).toBeUndefined();
      await context.close();
    });
  },
);
