// Run by `npm run test:package` after the build: `sluice/web` from `dist` serves the run page's
// script that the build bundled (ESM and CommonJS), and nothing in `dist` imports esbuild.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const esm = await import('../../dist/web/index.js');
const cjs = createRequire(import.meta.url)('../../dist/web/index.cjs');
const { exec } = await import('../../dist/index.js');

for (const [name, web] of [
  ['esm', esm],
  ['cjs', cjs],
]) {
  const registry = new web.RunRegistry({ logDir: false });
  registry.start(exec('echo', ['from dist'], { reject: false }), { command: 'echo from dist' });
  const server = await web.startWebServer({ registry });
  try {
    const page = await fetch(server.url);
    const script = await fetch(`${server.origin}/assets/page.js`);
    if (page.status !== 200 || !(await page.text()).includes('echo from dist')) {
      throw new Error(`dist/web (${name}) serves no page`);
    }
    const text = await script.text();
    if (script.status !== 200 || !text.startsWith('/* sluice run page.') || text.length < 10_000) {
      throw new Error(`dist/web (${name}) does not serve the bundled page script`);
    }
  } finally {
    await server.close();
    registry.close();
  }
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
