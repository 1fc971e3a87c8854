// `npm run bench:web`: the run page of `sluice/web` in headless Chromium, fed through the real
// server (run registry, SSE) by a real child. Every variant follows the same stream in a fresh
// page, interleaved round-robin over `--runs` rounds (median reported), so machine noise spreads
// over all of them:
//
//   fetch-count        fromFetchStream, counting events (the transport alone)
//   eventsource-count  fromEventSource, counting events (the transport the page does not use)
//   run-page           the real page: transport + LogView rendering
//   run-page@100k/s    the real page, the child writing at most 100,000 lines/s (paced)
//
// Reported: lines/s delivered to the page, the page's main-thread time per 100k lines (CDP
// Performance.TaskDuration), animation frames per second, the longest main-thread task after the
// page loaded (long tasks API) and the p95 delay of a 0 ms timer (what a click would wait).
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { defer, switchMap } from 'rxjs';
import { exec } from '../src/sources/exec.js';
import { RunRegistry } from '../src/web/run-registry.js';
import { startWebServer } from '../src/web/start-web-server.js';

interface Sample {
  linesPerSecond: number;
  msPer100k: number;
  fps: number;
  longestTaskMs: number;
  timerDelayP95Ms: number;
  domLines: number;
}

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const LINES = flag('lines', 300_000);
const RUNS = flag('runs', 3);
const PACED = flag('paced-lines', 500_000);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const fixture = fileURLToPath(new URL('./fixtures/paced-lines.py', import.meta.url));

/** A bare page that follows a run with `source` and counts its events. */
async function countingPage(source: 'fromFetchStream' | 'fromEventSource'): Promise<string> {
  const entry = fileURLToPath(
    new URL(
      `../src/browser/${source === 'fromFetchStream' ? 'from-fetch-stream' : 'from-event-source'}.ts`,
      import.meta.url,
    ),
  );
  const result = await build({
    stdin: {
      contents: `import { ${source} } from ${JSON.stringify(entry)};
        let lines = 0;
        ${source}(document.body.dataset.events, { retryMs: 1000 }).subscribe({
          next: (event) => { if (event.kind === 'stdout') lines += 1; document.body.dataset.lines = lines; },
          complete: () => { document.body.dataset.state = 'exited'; },
        });`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    minify: true,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

const PROBES = `
  window.__frames = 0; window.__delays = []; window.__long = 0;
  const tick = () => { window.__frames += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const probe = () => { const start = performance.now(); setTimeout(() => { window.__delays.push(performance.now() - start); setTimeout(probe, 20); }, 0); };
  probe();
  // Long tasks once the page has loaded (loading and compiling its script is not the stream's).
  addEventListener('load', () => {
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__long = Math.max(window.__long, entry.duration); })
      .observe({ type: 'longtask' });
  });
`;

async function measure(
  browser: Browser,
  registry: RunRegistry,
  origin: string,
  token: string,
  variant: string,
  scripts: Map<string, string>,
): Promise<Sample> {
  const paced = variant === 'run-page@100k/s';
  const lines = paced ? PACED : LINES;
  const child = paced
    ? exec('python3', [fixture, String(lines), '100000'], { reject: false })
    : exec('seq', ['-f', '%08g xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', '1', String(lines)], {
        reject: false,
      });
  // The child starts when the page has attached (the replay log holds the whole run: no gap).
  let attached: () => void = () => {};
  const viewer = new Promise<void>((resolve) => {
    attached = resolve;
  });
  const run = registry.start(defer(() => viewer).pipe(switchMap(() => child)), { command: variant });
  const watch = setInterval(() => {
    if (run.viewers > 0) {
      clearInterval(watch);
      attached();
    }
  }, 5);
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  await context.addCookies([{ name: `sluice-${new URL(origin).port}`, value: token, url: origin }]);
  const page = await context.newPage();
  await page.addInitScript(PROBES);
  page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
  const script = scripts.get(variant);
  if (script !== undefined) {
    await page.route(`${origin}/bench/${variant}`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><body data-events="/runs/${run.id}/events"><script type="module">${script}</script></body>`,
      }),
    );
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')
      ?.value ?? 0;
  const before = await taskSeconds();
  const started = performance.now();
  await page.goto(script === undefined ? `${origin}/runs/${run.id}` : `${origin}/bench/${variant}`);
  await page.waitForFunction(() => document.body.dataset.state === 'exited', undefined, {
    timeout: Number(process.env.WAIT_MS ?? 600_000),
  });
  const wallMs = performance.now() - started;
  const busyMs = ((await taskSeconds()) - before) * 1000;
  const probes = (await page.evaluate(
    `({ frames: window.__frames, delays: window.__delays, long: window.__long, dom: [...(document.querySelector('#log')?.children ?? [])].reduce((sum, part) => sum + part.textContent.split('\\n').length, 0) })`,
  )) as { frames: number; delays: number[]; long: number; dom: number };
  await context.close();
  const delays = [...probes.delays].sort((a, b) => a - b);
  return {
    linesPerSecond: lines / (wallMs / 1000),
    msPer100k: (busyMs / lines) * 100_000,
    fps: probes.frames / (wallMs / 1000),
    longestTaskMs: probes.long,
    timerDelayP95Ms: delays[Math.floor(delays.length * 0.95)] ?? 0,
    domLines: probes.dom,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const variants = ['fetch-count', 'eventsource-count', 'run-page', 'run-page@100k/s'];
  const scripts = new Map([
    ['fetch-count', await countingPage('fromFetchStream')],
    ['eventsource-count', await countingPage('fromEventSource')],
  ]);
  const registry = new RunRegistry({
    maxFinishedRuns: 1,
    retainMs: 0,
    logDir: false,
    replay: { maxEvents: 2_000_000, maxBytes: 512 * 1024 * 1024 },
  });
  const server = await startWebServer({ registry });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const samples = new Map<string, Sample[]>(variants.map((variant) => [variant, []]));
  try {
    // One warm-up (bundles the page script once).
    await measure(browser, registry, server.origin, server.token, 'fetch-count', scripts);
    for (let round = 1; round <= RUNS; round += 1) {
      for (const variant of variants) {
        samples
          .get(variant)
          ?.push(await measure(browser, registry, server.origin, server.token, variant, scripts));
        process.stderr.write(`round ${round}: ${variant} done\n`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
    registry.close();
  }
  const rows = variants.map((variant) => {
    const list = samples.get(variant) ?? [];
    const pick = (key: keyof Sample) => median(list.map((sample) => sample[key]));
    return {
      variant,
      ...Object.fromEntries((Object.keys(list[0] ?? {}) as (keyof Sample)[]).map((key) => [key, pick(key)])),
    } as { variant: string } & Sample;
  });
  const fetchRow = rows[0] as Sample;
  const esRow = rows[1] as Sample;
  console.log(
    `| variant | lines/s delivered | main thread per 100k lines | frames/s | longest task | timer delay p95 | lines in the DOM |`,
  );
  console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
  for (const row of rows) {
    console.log(
      `| ${row.variant} | ${Math.round(row.linesPerSecond).toLocaleString('en')} | ${Math.round(row.msPer100k)} ms | ${row.fps.toFixed(0)} | ${Math.round(row.longestTaskMs)} ms | ${Math.round(row.timerDelayP95Ms)} ms | ${row.domLines || '—'} |`,
    );
  }
  console.log(
    `\nEventSource / fetch stream, main-thread time per line: ${(esRow.msPer100k / fetchRow.msPer100k).toFixed(2)}×; ` +
      `run page / transport alone: ${((rows[2] as Sample).msPer100k / fetchRow.msPer100k).toFixed(2)}×. ` +
      `${LINES.toLocaleString('en')} lines (${PACED.toLocaleString('en')} paced), median of ${RUNS} rounds.`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
