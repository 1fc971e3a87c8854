import { delimiter, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { SluiceError } from '../core/errors/sluice-error.js';
import {
  type ExecToolArgs,
  type ExecToolResult,
  execToolArgsSchema,
  type ToolDefinition,
} from '../kernel/index.js';
import { findExecutable } from '../sources/exec/find-executable.js';
import type { ExecPolicy } from './exec-policy.js';

/** Environment variables that make the dynamic loader or Node load other code into a program. */
const LOADER_VARIABLE = /^(LD_|DYLD_)|^NODE_OPTIONS$/;

/**
 * The Exec tool as an MCP server offers it (docs/mcp.md, "The Exec policy: safe by default"):
 * `argv[0]` one of `policy.allow`, `timeout_s` bounded by `policy.timeoutS`, `cwd` resolved against
 * `policy.cwd` (and kept under it with `confineCwd`), no loader variables in `env` (only
 * `allowEnv` names when given). The program is looked up on the server's `PATH` (or against
 * `policy.cwd` with a `/`) and run by its absolute path, so a call's `env.PATH` cannot swap it.
 */
export function restrictExecTool(
  tool: ToolDefinition<ExecToolArgs, ExecToolResult>,
  policy: ExecPolicy,
): ToolDefinition {
  const { allow, timeoutS } = policy;
  const programs = allow.join(', ');
  const timeout = `must be a number of seconds in (0, ${timeoutS}]`;
  const schema = execToolArgsSchema.omit({ stream: true }).extend({
    argv: z
      .tuple(
        [
          z.enum(allow as [string, ...string[]], {
            error: `must be one of the allowed programs: ${programs}`,
          }),
        ],
        z.string({ error: 'must be a string' }),
        { error: 'must be a non-empty array of strings' },
      )
      .describe(`The program and its arguments, e.g. ["${allow[0]}", …] (no shell). Allowed: ${programs}`),
    timeout_s: z
      .number({ error: timeout })
      .gt(0, { error: timeout })
      .max(timeoutS, { error: timeout })
      .default(timeoutS)
      .describe(
        `Wall-clock limit in seconds (at most ${timeoutS}): the process group is killed when it expires`,
      ),
    env: envSchema(policy.allowEnv),
    ...(policy.confineCwd ? { cwd: confinedCwdSchema(policy.cwd) } : {}),
  });
  return {
    name: tool.name,
    description:
      `${tool.description ?? ''} Allowed programs: ${programs}. While it runs, its output lines ` +
      'arrive as progress notifications when the call has a progress token.',
    schema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.encodeResult === undefined ? {} : { encodeResult: tool.encodeResult }),
    handler: (args: z.infer<typeof schema>, ctx) => {
      const [program, ...rest] = args.argv;
      return tool.handler(
        {
          ...args,
          argv: [locate(program, policy), ...rest],
          cwd: resolve(policy.cwd, (args.cwd as string | undefined) ?? '.'),
          stream: ctx.onChunk !== undefined,
        },
        ctx,
      );
    },
  };
}

/** A call's `env`: no loader variables, and only the `allowEnv` names when the server gives them. */
function envSchema(allowEnv: readonly string[] | undefined) {
  const record = z
    .record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object of strings' })
    .refine((env) => !Object.keys(env).some((key) => LOADER_VARIABLE.test(key)), {
      error: 'must be an object of strings without LD_*, DYLD_* or NODE_OPTIONS',
    });
  if (allowEnv === undefined) {
    return record.optional().describe("Extra environment variables, merged into the server's");
  }
  const names = allowEnv.join(', ');
  const error =
    allowEnv.length === 0
      ? 'may not be set: this server allows no variable (start it with `--allow-env <NAME>`)'
      : `may set only ${names}`;
  return record
    .refine((env) => Object.keys(env).every((key) => allowEnv.includes(key)), { error })
    .optional()
    .describe(
      allowEnv.length === 0
        ? 'Not allowed on this server'
        : `Extra environment variables, merged into the server's (allowed: ${names})`,
    );
}

/** A call's `cwd` when it must stay under the server's: relative, and no `..` out of it. */
function confinedCwdSchema(root: string) {
  return z
    .string({ error: 'must be a string' })
    .refine((cwd) => cwd !== '' && !cwd.includes('\0'), { error: 'must be a non-empty string' })
    .refine((cwd) => !isAbsolute(cwd) && isInside(root, resolve(root, cwd)), {
      error: `must be a relative path that stays inside the server's directory ${root}`,
    })
    .optional()
    .describe("Working directory, relative to the server's (it may not leave it)");
}

function isInside(root: string, path: string): boolean {
  const rest = relative(root, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

function locate(program: string, policy: ExecPolicy): string {
  if (program.includes('/')) return resolve(policy.cwd, program);
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((directory) => isAbsolute(directory))
    .join(delimiter);
  const found = findExecutable(program, path);
  if ('path' in found) return found.path;
  throw new SluiceError(
    'SPAWN_FAILED',
    `\`${program}\` is allowed but ${found.errno === 'EACCES' ? 'not executable' : 'not found'} on the server's PATH`,
  );
}
