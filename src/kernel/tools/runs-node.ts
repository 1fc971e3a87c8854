import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { findExecutable } from '../../sources/exec/find-executable.js';

const NODE_NAME = /^node(js)?(\d+)?(\.exe)?$/i;
const SHEBANG_BYTES = 256;

/**
 * Whether running `file` starts Node: `file` is Node itself (`node`, `nodejs`, `node20`, … or
 * `process.execPath`), or it resolves — through `pathVariable` for a bare name, against `cwd`
 * for a relative path — to a script whose `#!` line runs Node (`#!/usr/bin/env node`,
 * `#!/usr/local/bin/node --flags`). `npm`, `npx`, `pnpm`, `tsc` and most CLIs installed
 * with npm are such scripts. A file that cannot be found or read is not Node.
 *
 * @example
 * ```ts
 * import { runsNode } from './runs-node.js'; // internal to the kernel
 * runsNode('npm', process.env.PATH); // true: /usr/bin/npm starts with `#!/usr/bin/env node`
 * runsNode('git', process.env.PATH); // false
 * ```
 */
export function runsNode(file: string, pathVariable: string | undefined, cwd?: string): boolean {
  if (file === process.execPath || NODE_NAME.test(basename(file))) return true;
  const found = findExecutable(file, pathVariable, cwd);
  if (!('path' in found)) return false;
  const words = readShebang(found.path);
  if (words === undefined) return false;
  const [interpreter = '', ...rest] = words;
  if (NODE_NAME.test(basename(interpreter))) return true;
  // `#!/usr/bin/env node` and `#!/usr/bin/env -S node --flag`: the first word that is not a flag.
  if (basename(interpreter) !== 'env') return false;
  const program = rest.find((word) => !word.startsWith('-'));
  return program !== undefined && NODE_NAME.test(basename(program));
}

function readShebang(path: string): string[] | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(SHEBANG_BYTES);
    const length = readSync(fd, buffer, 0, SHEBANG_BYTES, 0);
    const head = buffer.toString('latin1', 0, length);
    if (!head.startsWith('#!')) return undefined;
    const end = head.indexOf('\n');
    return head
      .slice(2, end === -1 ? undefined : end)
      .trim()
      .split(/\s+/);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
