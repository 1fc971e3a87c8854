import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDist } from '../support/build-dist.js';

// sluice inside an app bundle: the package as built (dist, test/support/build-dist.ts) is installed in a
// scratch folder, a small app using `sluice` and `sluice/kernel` is bundled by esbuild with every
// dependency inside, and the bundle runs from another folder, with no node_modules anywhere above
// it. Nothing may be loaded at run time from beside the bundle (no `createRequire` of a package).
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP = fileURLToPath(new URL('../fixtures/bundled-app.mjs', import.meta.url));
// The banner ESM bundles of Node apps usually carry, for CommonJS code inside them.
const REQUIRE_BANNER =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

let scratch: string;
let installed: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sluice-bundle-'));
  installed = join(scratch, 'project');
  installDist(installed);
  // The app sits beside that node_modules: in the repository, `sluice` would be the repository
  // itself (a package may import itself by name) and its own `dist`.
  copyFileSync(APP, join(installed, 'app.mjs'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const EXPECTED = {
  stdout: ['from exec\n'],
  streamed: 'from tool\n',
  tool: true,
  badTool: {
    ok: false,
    error: {
      code: 'INVALID_ARGUMENTS',
      message:
        'Invalid arguments of `Exec`: `argv` must be a non-empty array of strings, got "echo" (string)',
    },
  },
  badOption: 'Expected the `timeoutMs` option to be a non-negative integer, got `-1` (number)',
  sameRxjs: true,
};

async function bundleAndRun(format: 'esm' | 'cjs'): Promise<unknown> {
  const out = join(scratch, `run-${format}`);
  const outfile = join(out, format === 'esm' ? 'app.mjs' : 'app.cjs');
  await build({
    entryPoints: [join(installed, 'app.mjs')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format,
    outfile,
    absWorkingDir: installed,
    // `sluice` resolves to the installed build; rxjs and zod from the project's node_modules.
    nodePaths: [join(ROOT, 'node_modules')],
    ...(format === 'esm' ? { banner: { js: REQUIRE_BANNER } } : {}),
    logLevel: 'error',
  });
  expect(readdirSync(out)).toEqual([outfile.slice(out.length + 1)]);
  for (let folder = out; folder !== dirname(folder); folder = dirname(folder)) {
    expect(existsSync(join(folder, 'node_modules')), `${folder}/node_modules`).toBe(false);
  }
  const { stdout } = await promisify(execFile)(process.execPath, [outfile], {
    cwd: out,
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });
  return JSON.parse(stdout);
}

describe('an app that bundles sluice (esbuild) runs standalone', () => {
  it.each(['esm', 'cjs'] as const)('as %s', { timeout: 60_000 }, async (format) => {
    expect(await bundleAndRun(format)).toEqual(EXPECTED);
  });
});

describe('the package as installed, unbundled', () => {
  it('runs the same app, sharing one rxjs with it', { timeout: 60_000 }, async () => {
    const modules = join(installed, 'node_modules');
    mkdirSync(modules, { recursive: true });
    for (const name of ['rxjs', 'tslib', 'zod', 'signal-exit']) {
      if (!existsSync(join(modules, name)))
        symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
    }
    const { stdout } = await promisify(execFile)(process.execPath, [join(installed, 'app.mjs')], {
      cwd: installed,
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    });
    expect(JSON.parse(stdout)).toEqual(EXPECTED);
  });
});
