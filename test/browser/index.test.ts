import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as browser from '../../src/browser/index.js';

describe('sluice/browser', () => {
  it('exports the browser sources', () => {
    expect(typeof browser.fromEventSource).toBe('function');
    expect(typeof browser.fromFetchStream).toBe('function');
    expect(typeof browser.checkSequence).toBe('function');
    expect(typeof browser.coalesce).toBe('function');
  });

  it('bundles for the browser with nothing from Node on its import graph', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../../src/browser/index.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(
      inputs.filter(
        (input) => input.startsWith('node:') || /\/(execa|node_modules\/@types\/node)\//.test(input),
      ),
    ).toEqual([]);
    const ours = inputs.filter((input) => input.startsWith('src/'));
    expect(ours.every((input) => /^src\/(browser|core|operators|runs\/sse)\//.test(input))).toBe(true);
  });

  it('imports no zod, and its minified bundle (rxjs external) is at most 30 KB', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../../src/browser/index.ts', import.meta.url))],
      bundle: true,
      write: false,
      minify: true,
      format: 'esm',
      platform: 'browser',
      external: ['rxjs'],
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('node_modules'))).toEqual([]); // no zod, nothing else
    expect(inputs.length).toBeGreaterThan(10); // the check sees the whole entry
    expect(result.outputFiles[0]?.contents.length).toBeLessThanOrEqual(30 * 1024);
  });
});
