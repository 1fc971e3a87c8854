import { chmodSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { execToolArgsSchema, toExecOptions } from '../../../src/kernel/tools/exec-tool-args.js';

const MB = 1024 * 1024;
const parse = (args: unknown) => execToolArgsSchema.parse(args);

describe('toExecOptions', () => {
  it('maps the defaults: 60 s, 256 KiB, reject false, 512 MB / 64 MB / 256 files', () => {
    expect(toExecOptions(parse({ argv: ['python3', 'x.py'] }), {})).toEqual({
      lines: true,
      reject: false,
      timeoutMs: 60_000,
      maxOutputBytes: 256 * 1024,
      rlimits: { addressSpaceBytes: 512 * MB, fileSizeBytes: 64 * MB, openFiles: 256 },
    });
  });

  it('maps every argument', () => {
    const args = parse({
      argv: ['sh', '-c', 'true'],
      cwd: '/tmp',
      env: { A: '1' },
      timeout_s: 0.25,
      max_output_bytes: 2048,
      rlimits: { cpu_s: 2, as_bytes: 1024 * MB, fsize_bytes: 1000, nofile: 32 },
    });
    expect(toExecOptions(args, { scheduler: asyncScheduler })).toEqual({
      lines: true,
      reject: false,
      timeoutMs: 250,
      maxOutputBytes: 2048,
      rlimits: { cpuSeconds: 2, addressSpaceBytes: 1024 * MB, fileSizeBytes: 1000, openFiles: 32 },
      cwd: '/tmp',
      env: { A: '1' },
      scheduler: asyncScheduler,
    });
  });

  it('leaves the default address-space limit off for Node children, keeps an explicit one', () => {
    for (const node of ['node', '/usr/local/bin/node', 'nodejs', 'node20', process.execPath]) {
      expect(toExecOptions(parse({ argv: [node, '-e', '1'] }), {}).rlimits).not.toHaveProperty(
        'addressSpaceBytes',
      );
    }
    expect(
      toExecOptions(parse({ argv: ['node'], rlimits: { as_bytes: 3 * 1024 * MB } }), {}).rlimits,
    ).toMatchObject({
      addressSpaceBytes: 3 * 1024 * MB,
    });
    expect(toExecOptions(parse({ argv: ['nodemon'] }), {}).rlimits).toMatchObject({
      addressSpaceBytes: 512 * MB,
    });
  });

  it('treats a script whose #! line runs Node (npm, npx, …) as Node, found through env.PATH', () => {
    const bin = mkdtempSync(join(tmpdir(), 'sluice-shebang-'));
    const script = (name: string, text: string) => {
      writeFileSync(join(bin, name), text);
      chmodSync(join(bin, name), 0o755);
    };
    script('env-node', '#!/usr/bin/env node\nconsole.log(1)\n');
    script('env-s-node', '#!/usr/bin/env -S node --no-warnings\n');
    script('direct-node', '#!/usr/local/bin/node20 --flag\n');
    script('shell', '#!/bin/sh\necho node\n');
    script('env-python', '#!/usr/bin/env python3\n');
    script('no-shebang', 'node\n');
    symlinkSync(join(bin, 'env-node'), join(bin, 'linked'));
    const env = { PATH: bin };
    const limited = (file: string) =>
      'addressSpaceBytes' in (toExecOptions(parse({ argv: [file], env }), {}).rlimits ?? {});
    for (const file of ['env-node', 'env-s-node', 'direct-node', 'linked', join(bin, 'env-node')]) {
      expect(limited(file), file).toBe(false);
    }
    for (const file of ['shell', 'env-python', 'no-shebang', 'missing'])
      expect(limited(file), file).toBe(true);
    // A relative path is looked up against the call's cwd.
    expect(
      'addressSpaceBytes' in (toExecOptions(parse({ argv: ['./env-node'], cwd: bin }), {}).rlimits ?? {}),
    ).toBe(false);
  });
});
