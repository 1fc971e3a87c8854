import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('sluice/operators in a browser bundle', () => {
  it('bundles for the browser platform, nothing from Node on its import graph', async () => {
    // esbuild fails on a `node:` import it cannot resolve for the browser; package.json's `browser`
    // map disables the one that `renderTerminal`'s peer loading needs on Node (`node:module`).
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../../src/operators/index.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      external: ['rxjs'],
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith('node:') || input.includes('node_modules/'))).toEqual(
      [],
    );
    expect(inputs.filter((input) => input.startsWith('src/operators/')).length).toBeGreaterThan(10);
    expect(inputs.every((input) => /^(src\/(core|operators)\/|\(disabled\):node:module$)/.test(input))).toBe(
      true,
    );
  });
});
