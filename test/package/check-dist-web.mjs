// Run by `npm run test:package` after the build: `sluice/web` from `dist` serves the run page's
// script that the build bundled (ESM and CommonJS), and nothing in `dist` imports esbuild.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

const esm = await import('../../dist/web/index.js');
const cjs = createRequire(import.meta.url)('../../dist/web/index.cjs');
const { exec } = await import('../../dist/index.js');

for (const [name, web] of [
  ['esm', esm],
  ['cjs', cjs],
]) {
  const script = gunzipSync(await web.loadPageScript()).toString();
  if (!script.startsWith('/* sluice run page.') || script.length < 10_000) {
    throw new Error(`dist/web (${name}) does not hold the bundled page script`);
  }
}

const registry = new esm.RunRegistry({ logDir: false });
registry.start(exec('echo', ['from dist'], { reject: false }), { command: 'echo from dist' });
const server = await esm.startWebServer({ registry });
try {
  const page = await fetch(server.url);
  const script = await fetch(`${server.origin}/assets/page.js`);
  if (page.status !== 200 || !(await page.text()).includes('echo from dist')) throw new Error('no page');
  if (script.status !== 200 || !(await script.text()).includes('sluice run page'))
    throw new Error('no script');
} finally {
  await server.close();
  registry.close();
}

const files = readdirSync(new URL('../../dist/', import.meta.url), { recursive: true }).filter((file) =>
  /\.(c?js)$/.test(String(file)),
);
for (const file of files) {
  const text = readFileSync(new URL(`../../dist/${file}`, import.meta.url), 'utf8');
  if (/from ["']esbuild["']|require\(["']esbuild["']\)|import\(["']esbuild["']\)/.test(text)) {
    throw new Error(`dist/${file} imports esbuild`);
  }
}
console.log(`dist/web serves its bundled page (esm and cjs); ${files.length} dist files import no esbuild`);
