import { z } from 'zod';

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
