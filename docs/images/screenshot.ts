// `npm run docs:screenshot`: makes docs/images/sluice-web.png, the run page of `sluice exec --web`
// in headless Chromium, mid-run, following a child that prints a colourful test run.
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { exec } from '../../src/sources/exec.js';
import { RunRegistry } from '../../src/web/run-registry.js';
import { startWebServer } from '../../src/web/start-web-server.js';

const child = `
const lines = [
  '\\x1b[1m> sluice@0.1.0 test\\x1b[0m',
  '\\x1b[2m> vitest run\\x1b[0m',
  '',
  ' \\x1b[1;46;30m RUN \\x1b[0m \\x1b[36mv4.1.12\\x1b[0m \\x1b[2m/work/sluice\\x1b[0m',
  '',
];
const files = ['adapters/on-chunk', 'adapters/to-async-iterable', 'operators/coalesce', 'operators/stall-timeout',
  'sources/exec', 'sources/http', 'kernel/host', 'kernel/bridge', 'web/run-registry', 'web/web-guard'];
files.forEach((file, index) => {
  const tests = 6 + ((index * 7) % 13);
  lines.push(' \\x1b[32m✓\\x1b[0m test/' + file + '.test.ts \\x1b[2m(' + tests + ' tests)\\x1b[0m \\x1b[33m' + (40 + index * 37) + 'ms\\x1b[0m');
});
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
(async () => {
  for (const line of lines) { process.stdout.write(line + '\\n'); await wait(30); }
  process.stderr.write('warning: test/sources/exec.test.ts took 5.2s (slow test threshold: 5s)\\n');
  for (let step = 0; step <= 10; step += 1) {
    process.stdout.write('\\r downloading fixtures [' + '#'.repeat(step) + '.'.repeat(10 - step) + '] ' + step * 10 + '%');
    await wait(20);
  }
  process.stdout.write('\\n \\x1b[33m❯\\x1b[0m test/web/page.test.ts \\x1b[2m(8 tests)\\x1b[0m\\n');
  await wait(600000);
})();
`;

const registry = new RunRegistry({ logDir: false });
const run = registry.start(exec(process.execPath, ['-e', child], { reject: false }), { command: 'npm test' });
const server = await startWebServer({ registry });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 470 }, deviceScaleFactor: 1 });
  await page.goto(server.url);
  await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('page.test.ts'));
  await page.waitForTimeout(1300); // the elapsed clock and the pulse settle
  const path = fileURLToPath(new URL('./sluice-web.png', import.meta.url));
  await page.screenshot({ path });
  console.log(`wrote ${path}`);
} finally {
  run.cancel();
  await browser.close();
  await server.close();
  registry.close();
}
