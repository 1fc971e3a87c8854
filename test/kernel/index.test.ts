import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as kernel from '../../src/kernel/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = join(root, 'src');
const tools = join(src, 'kernel', 'tools');
const supervisor = join(src, 'kernel', 'supervisor');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(m|c)?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The files a source file imports (relative specifiers only), resolved to absolute paths without extension. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s*|import\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(
    (m) => m[1] ?? '',
  );
  return specifiers.map((specifier) => resolve(dirname(file), specifier).replace(/\.(m|c)?[jt]sx?$/, ''));
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

describe('the kernel tools/supervisor boundary', () => {
  it('nothing outside src/kernel imports the tools or the supervisor', () => {
    const offenders = sourceFiles(src)
      .filter((file) => !inside(file, join(src, 'kernel')))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => inside(target, tools) || inside(target, supervisor))
          .map((target) => `${relative(root, file)} -> ${relative(root, target)}`),
      );
    expect(offenders).toEqual([]);
    // The scan does see imports: the kernel barrel imports both folders.
    const barrel = importsOf(join(src, 'kernel', 'index.ts'));
    expect(barrel.some((target) => inside(target, tools))).toBe(true);
    expect(barrel.some((target) => inside(target, supervisor))).toBe(true);
  });

  it('tools do not depend on the supervisor (the dependency goes one way)', () => {
    const upward = sourceFiles(tools).flatMap((file) =>
      importsOf(file)
        .filter((target) => inside(target, supervisor))
        .map((target) => relative(root, target)),
    );
    expect(upward).toEqual([]);
  });

  it('is exported from sluice/kernel', () => {
    for (const name of [
      'createToolRegistry',
      'dispatchToolCall',
      'createExecTool',
      'registerBuiltinTools',
      'createSupervisor',
    ]) {
      expect(typeof (kernel as Record<string, unknown>)[name], name).not.toBe('undefined');
    }
  });

  it('sluice/kernel exports what users call, not the parts it is built from', () => {
    const internals = [
      'openHostStream',
      'execProducer',
      'execPayloadSchema',
      'toExecOptions',
      'toolChunkSchema',
    ];
    expect(internals.filter((name) => name in kernel)).toEqual([]);
    expect(Object.keys(kernel).sort()).toEqual([
      'HostcallStream',
      'bridgeCodec',
      'connectExtension',
      'createBridge',
      'createExecTool',
      'createExtensionApi',
      'createFrameDecoder',
      'createHost',
      'createMacrotaskScheduler',
      'createSupervisor',
      'createToolRegistry',
      'decodeFrames',
      'dispatchToolCall',
      'encodeFrame',
      'execToolArgsSchema',
      'execToolResultSchema',
      'registerBuiltinTools',
      'serdeCodec',
    ]);
  });
});
