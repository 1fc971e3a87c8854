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
 * The zod schema of the Exec tool's arguments, in the wire's names, with their defaults and
 * bounds (docs/protocol.md, "The Exec tool"). Unknown keys are rejected; no string may hold a
 * NUL byte, and no variable name may be empty or hold `=`.
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
 * How the host sets up the Exec tool, what a caller may not choose: `containment` and tree-wide
 * `limits` (`exec`'s: they need cgroup controllers, or every call fails with `LIMIT_UNAVAILABLE`);
 * for tests, the scheduler and the `exec` source's process port.
 */
export interface ExecToolConfig {
  readonly scheduler?: SchedulerLike | undefined;
  readonly port?: ExecOptions['port'];
  readonly containment?: ExecOptions['containment'];
  readonly limits?: ExecOptions['limits'];
}

/**
 * Parsed Exec tool arguments as `exec` options: `reject: false` (failures are in the result),
 * lines on, the default rlimits filled in — but no default address-space limit for a program
 * that starts Node ({@link runsNode}: V8 cannot start under it); an explicit `as_bytes` applies.
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
 * Whether running `file` starts Node: Node itself (`node`, `nodejs`, `node20`, `process.execPath`),
 * or a script found through `pathVariable` (or against `cwd`) whose `#!` line runs Node, as `npm`
 * and most npm-installed CLIs. A file that cannot be read is not Node.
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
