import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The import budget (docs/benchmarks.md): `import 'sluice'` may cost at most rxjs + 30 ms, and a
// script that runs one `exec` at most 1.1 × the same script on execa. zod (40–65 ms) and execa
// (~100 ms) each cost about as much as rxjs, so the root entry loads neither, not even later:
// options are checked by hand (src/core/read-option.ts), children spawned with node:child_process.
const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

async function importsOf(entryPoint: string) {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    external: ['rxjs', 'zod', 'execa', 'ioredis', '@modelcontextprotocol/sdk/*'],
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0];
  return output?.imports ?? [];
}

describe('the root entry point', () => {
  it('never loads zod nor execa, not even dynamically', async () => {
    const all = (await importsOf(entry)).map((item) => item.path);
    expect(all).toContain('rxjs'); // the check sees the imports it should
    expect(all).toContain('node:child_process');
    expect(all).not.toContain('zod');
    expect(all).not.toContain('execa');
  });

  it('never loads ioredis, not even dynamically (only `sluice/redis` does)', async () => {
    const imports = await importsOf(entry);
    expect(imports.map((item) => item.path)).not.toContain('ioredis');
  });

  it('never loads the MCP SDK, not even dynamically (only sluice/mcp and `sluice mcp` do)', async () => {
    const all = (await importsOf(entry)).map((item) => item.path);
    expect(all.filter((path) => path.startsWith('@modelcontextprotocol/'))).toEqual([]);
    const mcp = (await importsOf(fileURLToPath(new URL('../../src/mcp/index.ts', import.meta.url)))).map(
      (item) => item.path,
    );
    expect(mcp).toContain('@modelcontextprotocol/sdk/server/index.js'); // the check sees it where it is
  });
});
