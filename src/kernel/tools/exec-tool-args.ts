import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { SchedulerLike } from 'rxjs';
import { z } from 'zod';
import { findExecutable } from '../../sources/exec/find-executable.js';
import type { ExecRlimits } from '../../sources/exec/process-port.js';
import type { ExecOptions } from '../../sources/exec.js';
import { fromWireNames } from '../protocol/wire-names.js';

const MIB = 1024 * 1024;
const positiveInt = (what: string) =>
  z
    .number({ error: `must be ${what}` })
    .int({ error: `must be ${what}` })
    .positive({ error: `must be ${what}` });

/** A string the OS can pass to a child: no NUL byte. */
const osString = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .refine((text) => !text.includes('\0'), { error: `must be ${what} without NUL bytes` });

/**
 * The arguments of the Exec tool (snake_case, as on the wire). Unknown keys are rejected, so a
 * typo (`timeout` for `timeout_s`) is an error instead of a silently ignored limit.
 *
 * - `argv` — non-empty array of strings: the executable and its arguments (no shell);
 * - `cwd`, `env` — working directory and extra environment variables (merged into the parent's);
 *   no string may hold a NUL byte, and no variable name may be empty or hold `=`;
 * - `timeout_s` — wall-clock limit in seconds, default 60, at most 600 (fractions allowed);
 * - `max_output_bytes` — cap on each of the returned `stdout` / `stderr`, default 256 KiB,
 *   1 KiB – 4 MiB;
 * - `rlimits` — `cpu_s`, `as_bytes` (default 512 MB, see {@link createExecTool} for Node
 *   children), `fsize_bytes` (default 64 MB), `nofile` (default 256);
 * - `stream` — `true` to stream one chunk per output line; must be a boolean if given;
 * - `tty` — `true` to run the program on an 80 × 24 pseudo-terminal and answer the lines a person
 *   would read there (docs/terminal.md, "Agents: the Exec tool on a terminal"); must be a boolean
 *   if given.
 */
export const execToolArgsSchema = z.strictObject({
  argv: z
    .array(osString('a string'), { error: 'must be a non-empty array of strings' })
    .min(1, { error: 'must be a non-empty array of strings' })
    .describe('The program and its arguments, e.g. ["git", "status"] (no shell)'),
  cwd: osString('a string')
    .refine((cwd) => cwd !== '', { error: 'must be a non-empty string' })
    .optional()
    .describe('Working directory'),
  env: z
    .record(z.string(), osString('a string'), { error: 'must be an object of strings' })
    .superRefine((env, context) => {
      const bad = Object.keys(env).find((name) => name === '' || /[=\0]/.test(name));
      if (bad === undefined) return;
      const message = 'must be an object whose names are non-empty and hold no `=` or NUL';
      context.addIssue({ code: 'custom', message, input: bad });
    })
    .optional()
    .describe("Extra environment variables, merged into the server's"),
  timeout_s: z
    .number({ error: 'must be a number of seconds in (0, 600]' })
    .gt(0, { error: 'must be a number of seconds in (0, 600]' })
    .max(600, { error: 'must be a number of seconds in (0, 600]' })
    .default(60)
    .describe('Wall-clock limit in seconds: the whole process group is killed when it expires'),
  max_output_bytes: z
    .number({ error: 'must be an integer between 1024 and 4194304' })
    .int({ error: 'must be an integer between 1024 and 4194304' })
    .min(1024, { error: 'must be an integer between 1024 and 4194304' })
    .max(4 * MIB, { error: 'must be an integer between 1024 and 4194304' })
    .default(256 * 1024)
    .describe('Cap on each of the returned stdout and stderr, in bytes'),
  rlimits: z
    .strictObject(
      {
        cpu_s: positiveInt('a positive integer').optional(),
        as_bytes: positiveInt('a positive integer').optional(),
        fsize_bytes: positiveInt('a positive integer').optional(),
        nofile: positiveInt('a positive integer').optional(),
      },
      { error: 'must be an object' },
    )
    .default({})
    .describe('Resource limits: CPU seconds, address space, file size (bytes), open files'),
  stream: z
    .boolean({ error: 'must be a boolean' })
    .default(false)
    .describe('Stream one chunk per output line'),
  tty: z
    .boolean({ error: 'must be a boolean' })
    .default(false)
    .describe(
      'Run the program on a terminal (80 × 24): programs that buffer into a pipe (grep, sed, perl, ' +
        'compilers) write each line at once. The output is the finished lines as a person would read ' +
        'them (progress bars in their last state, no colour codes), stdout and stderr in one',
    ),
});

/** Parsed Exec tool arguments, defaults applied (see {@link execToolArgsSchema}). */
export type ExecToolArgs = z.infer<typeof execToolArgsSchema>;

const DEFAULT_AS_BYTES = 512 * 1024 * 1024;
const DEFAULT_FSIZE_BYTES = 64 * 1024 * 1024;
const DEFAULT_NOFILE = 256;

/** The terminal of an Exec tool call with `tty: true`. */
const TERMINAL = { columns: 80, rows: 24 } as const;

/**
 * How the host sets up the Exec tool (see {@link createExecTool}) — what the caller of a tool may
 * not choose: how its commands are contained (`containment`, `exec`'s option: default `'auto'`,
 * their own cgroup where this machine allows it, so a command's daemons die with the call) and
 * the tree-wide `limits` of every command (`exec`'s `limits`: they need a cgroup and its
 * controllers, or every call fails with `LIMIT_UNAVAILABLE`); and, for tests, the scheduler of its
 * timeout and durations and the process port of the `exec` source.
 */
export interface ExecToolConfig {
  readonly scheduler?: SchedulerLike | undefined;
  readonly port?: ExecOptions['port'];
  readonly containment?: ExecOptions['containment'];
  readonly limits?: ExecOptions['limits'];
}

/**
 * Maps parsed Exec tool arguments to options of the `exec` source: `reject: false` (the tool
 * reports failures in its result), lines on, `tty: true` as an 80 × 24 terminal, the kernel's default rlimits (512 MB address space,
 * 64 MB file size, 256 open files) filled in.
 *
 * The default address-space limit is **not** applied when `argv[0]` starts Node — `node`,
 * `nodejs`, `node20`, … or `process.execPath`, or a script whose `#!` line runs Node, such as
 * `npm` or `npx` (looked up through `env.PATH` or the parent's `PATH`): V8 reserves a large
 * virtual region up front and cannot even start under 512 MB. An explicit `rlimits.as_bytes` is
 * always applied, Node or not.
 *
 * @example
 * ```ts
 * import { execToolArgsSchema, toExecOptions } from 'sluice/kernel';
 * toExecOptions(execToolArgsSchema.parse({ argv: ['python3', 'x.py'], timeout_s: 5 }), {});
 * // { timeoutMs: 5000, reject: false, rlimits: { addressSpaceBytes: 536870912, … }, … }
 * ```
 */
export function toExecOptions(args: ExecToolArgs, config: ExecToolConfig): ExecOptions {
  // The limits given, in the source's names by the one table (docs/protocol.md, "Names on the wire").
  const given = fromWireNames({ ...args.rlimits }) as ExecRlimits;
  const file = args.argv[0] ?? '';
  const path = args.env?.PATH ?? process.env.PATH;
  const addressSpaceBytes =
    given.addressSpaceBytes ?? (runsNode(file, path, args.cwd) ? undefined : DEFAULT_AS_BYTES);
  const options: ExecOptions = {
    lines: true,
    reject: false,
    timeoutMs: Math.max(1, Math.round(args.timeout_s * 1000)),
    maxOutputBytes: args.max_output_bytes,
    rlimits: {
      ...given,
      ...(addressSpaceBytes === undefined ? {} : { addressSpaceBytes }),
      fileSizeBytes: given.fileSizeBytes ?? DEFAULT_FSIZE_BYTES,
      openFiles: given.openFiles ?? DEFAULT_NOFILE,
    },
  };
  if (args.tty) options.tty = TERMINAL;
  if (args.cwd !== undefined) options.cwd = args.cwd;
  if (args.env !== undefined) options.env = args.env;
  if (config.scheduler !== undefined) options.scheduler = config.scheduler;
  if (config.port !== undefined) options.port = config.port;
  if (config.containment !== undefined) options.containment = config.containment;
  if (config.limits !== undefined) options.limits = config.limits;
  return options;
}

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
 * import { runsNode } from './exec-tool-args.js'; // internal to the kernel
 * runsNode('npm', process.env.PATH); // true: /usr/bin/npm starts with `#!/usr/bin/env node`
 * runsNode('git', process.env.PATH); // false
 * ```
 */
function runsNode(file: string, pathVariable: string | undefined, cwd?: string): boolean {
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
