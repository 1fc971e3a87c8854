import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/sluice-cli.js';

// What `sluice exec -- cmd` loads, the part of its start-up the code decides (docs/benchmarks.md,
// "Start-up"; the time itself is measured by the bench only). The CLI as built (dist, which
// vitest's global setup builds: test/support/build-dist.ts) runs where the project's node_modules
// can be found, so that everything an app might have installed beside sluice —
// `@opentelemetry/api` above all — can be loaded, and must still not be.
const SCRATCH = mkdtempSync(join(tmpdir(), 'sluice-cli-startup-'));

// Records, at exit, every ES module file and CommonJS file the process loaded, and Node's builtins.
const ESM_HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(join(SCRATCH, 'esm.log'))}, url + '\\n');
  return next(url, context);
}
`;
const RECORDER = `const { register } = require('node:module');
const { pathToFileURL } = require('node:url');
const { writeFileSync } = require('node:fs');
register(pathToFileURL(${JSON.stringify(join(SCRATCH, 'hooks.mjs'))}));
process.on('exit', () => writeFileSync(${JSON.stringify(join(SCRATCH, 'loaded.json'))}, JSON.stringify({
  cjs: Object.keys(require.cache),
  builtins: process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).map((name) => name.slice(13)),
})));
`;

beforeAll(() => {
  writeFileSync(join(SCRATCH, 'hooks.mjs'), ESM_HOOKS);
  writeFileSync(join(SCRATCH, 'recorder.cjs'), RECORDER);
});

afterAll(() => {
  rmSync(SCRATCH, { recursive: true, force: true });
});

async function loadedBy(args: readonly string[]) {
  rmSync(join(SCRATCH, 'esm.log'), { force: true });
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--require', join(SCRATCH, 'recorder.cjs'), CLI, ...args],
    { cwd: SCRATCH, env: { PATH: process.env.PATH }, encoding: 'utf8' },
  );
  const { cjs, builtins } = JSON.parse(readFileSync(join(SCRATCH, 'loaded.json'), 'utf8')) as {
    cjs: string[];
    builtins: string[];
  };
  // A set: Node 20's hooks thread runs the `--require` too, so each hook may be there twice.
  const esm = new Set(
    readFileSync(join(SCRATCH, 'esm.log'), 'utf8')
      .trim()
      .split('\n')
      .map((url) => fileURLToPath(url)),
  );
  return { stdout, files: [...esm, ...cjs.filter((file) => !file.endsWith('recorder.cjs'))], builtins };
}

describe('sluice exec -- cmd, as installed', () => {
  it('loads four files of its own and nothing else from node_modules', { timeout: 60_000 }, async () => {
    const { stdout, files } = await loadedBy(['exec', '--', 'echo', 'hello']);
    expect(stdout).toBe('hello\n');
    const cli = join(CLI, '..');
    // main.js (which turns the compile cache on first), start-cli with the commands, one chunk with
    // exec and rxjs inside, and the chunk of the errors and peer loading that every entry shares
    // (the lazily loaded --json, --redis, --web and mcp paths load exec's code as a whole: tsup.config.ts).
    expect(files.every((file) => file.startsWith(`${cli}/`))).toBe(true);
    expect(files).toHaveLength(4);
    // So no OpenTelemetry API (nothing is registered with it here); and no zod inside them either.
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain('// node_modules/zod/');
  });

  it('does not load node:crypto (only the cgroup name needs a random part)', {
    timeout: 60_000,
  }, async () => {
    const { builtins } = await loadedBy(['exec', '--', 'true']);
    expect(builtins).toContain('child_process');
    expect(builtins).not.toContain('crypto');
  });
});
