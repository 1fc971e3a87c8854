import { constants } from 'node:os';
import { asyncScheduler, isObservable, type Observable, type SchedulerLike } from 'rxjs';
import type { z } from 'zod';
import type { Demand } from '../../core/demand.js';
import { lazySchema } from '../../core/lazy-zod.js';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { optionError } from '../../core/option-error.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import { checkSpawnStrings } from './check-spawn-strings.js';
import type { ExecRlimits } from './exec-rlimits.js';
import type { ExecOptions } from './exec-types.js';
import type { ProcessPort } from './process-port.js';

/** {@link ExecOptions} with defaults applied, as `exec` runs with them. */
export interface ResolvedExecOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
  readonly extendEnv: boolean;
  readonly input: string | Uint8Array | Observable<string | Uint8Array> | undefined;
  readonly lines: boolean;
  readonly encoding: 'utf8' | 'buffer';
  readonly maxLineBytes: number;
  readonly maxOutputBytes: number;
  readonly timeoutMs: number;
  readonly reject: boolean;
  readonly killSignal: NodeJS.Signals;
  readonly forceKillAfterMs: number;
  readonly rlimits: ExecRlimits | undefined;
  readonly cancelSignal: AbortSignal | undefined;
  readonly cleanup: boolean;
  readonly scheduler: SchedulerLike;
  readonly port: ProcessPort | undefined;
  readonly demand: Demand | undefined;
}

/** The schemas, built with zod on the first `exec()` call (see lazy-zod.ts). */
const validation = lazySchema((z) => {
  const integer = (minimum: number) => z.number().int().min(minimum).max(Number.MAX_SAFE_INTEGER);
  /** A timer delay: longer ones would fire at once (see {@link MAX_DELAY_MS}). */
  const delay = z.number().int().min(0).max(MAX_DELAY_MS);
  const hasMethods = (...names: string[]) =>
    z.custom<object>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function'),
    );

  /** Each checked field: its schema and, for the message, what it was expected to be. */
  const FIELDS: Record<string, readonly [z.ZodType, string]> = {
    cwd: [z.string().min(1), 'a non-empty string'],
    env: [z.record(z.string(), z.string().optional()), 'an object of strings'],
    extendEnv: [z.boolean(), 'a boolean'],
    input: [
      z.union([z.string(), z.instanceof(Uint8Array), z.custom((value) => isObservable(value))]),
      'a string, a Uint8Array or an Observable',
    ],
    lines: [z.boolean(), 'a boolean'],
    encoding: [z.enum(['utf8', 'buffer']), "`'utf8'` or `'buffer'`"],
    maxLineBytes: [integer(1), 'a positive integer'],
    maxOutputBytes: [integer(0), 'a non-negative integer'],
    timeoutMs: [delay, 'a non-negative integer'],
    reject: [z.boolean(), 'a boolean'],
    killSignal: [z.string().refine((name) => name in constants.signals), 'a signal name such as `SIGTERM`'],
    forceKillAfterMs: [delay, 'a non-negative integer'],
    rlimits: [z.object({}), 'an object'],
    'rlimits.cpuSeconds': [integer(1), 'a positive integer'],
    'rlimits.addressSpaceBytes': [integer(1), 'a positive integer'],
    'rlimits.fileSizeBytes': [integer(0), 'a non-negative integer'],
    'rlimits.openFiles': [integer(1), 'a positive integer'],
    cancelSignal: [z.instanceof(AbortSignal), 'an AbortSignal'],
    cleanup: [z.boolean(), 'a boolean'],
    scheduler: [hasMethods('now', 'schedule'), 'a SchedulerLike'],
    port: [hasMethods('spawn'), 'a ProcessPort'],
    demand: [hasMethods('onChange'), 'a Demand'],
  };

  const optional = (prefix: string) =>
    Object.fromEntries(
      Object.entries(FIELDS)
        .filter(([path]) => path.startsWith(prefix) && !path.slice(prefix.length).includes('.'))
        .map(([path, [schema]]) => [path.slice(prefix.length), schema.optional()]),
    );

  const schema = z.strictObject({
    ...optional(''),
    rlimits: z.strictObject(optional('rlimits.')).optional(),
  });
  const KNOWN = Object.keys(optional(''));
  const KNOWN_RLIMITS = Object.keys(optional('rlimits.'));
  return { FIELDS, schema, KNOWN, KNOWN_RLIMITS };
});

/**
 * Validates the arguments and options of `exec` and applies the defaults. Throws a `TypeError`
 * that names the field, in execa's template: "Expected the `timeoutMs` option to be a
 * non-negative integer, got `-1` (number)".
 *
 * @example
 * ```ts
 * resolveExecOptions('ls', ['-l'], { timeoutMs: 1000 }).forceKillAfterMs; // 2000
 * ```
 */
export function resolveExecOptions(
  file: unknown,
  args: unknown,
  options: ExecOptions | undefined,
): ResolvedExecOptions {
  if (typeof file !== 'string' || file.length === 0)
    throw optionError('file', 'a non-empty string', file, 'argument');
  if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))) {
    throw optionError('args', 'an array of strings', args, 'argument');
  }
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw optionError('options', 'an object', options, 'argument');
  }
  const given: ExecOptions = options ?? {};
  const { FIELDS, schema, KNOWN, KNOWN_RLIMITS } = validation();
  // A misspelt option (`timeout`, `rlimits.cpu`) must not silently run without it.
  rejectUnknownOptions(given, KNOWN);
  rejectUnknownOptions(given.rlimits, KNOWN_RLIMITS, 'rlimits.');
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const keys = issue.path.filter((key) => typeof key === 'string');
    // The deepest checked field on the issue's path (`rlimits.cpuSeconds`, but `env` for `env.A`).
    const path =
      [2, 1].map((depth) => keys.slice(0, depth)).find((prefix) => prefix.join('.') in FIELDS) ?? keys;
    const field = path.join('.');
    const value = path.reduce<unknown>((object, key) => (object as Record<string, unknown>)?.[key], given);
    const checked = FIELDS[field];
    const maximum =
      issue.code === 'too_big' ? (checked?.[0] as z.ZodNumber | undefined)?.maxValue : undefined;
    const bound = typeof maximum === 'number' ? ` up to ${maximum}` : '';
    throw optionError(field, `${checked?.[1] ?? issue.message}${bound}`, value);
  }
  checkSpawnStrings(file, (args as readonly string[] | undefined) ?? [], given.cwd, given.env);
  return {
    file,
    args: (args as readonly string[] | undefined) ?? [],
    cwd: given.cwd,
    env: given.env,
    extendEnv: given.extendEnv ?? true,
    input: given.input,
    lines: given.lines ?? true,
    encoding: given.encoding ?? 'utf8',
    maxLineBytes: given.maxLineBytes ?? 65_536,
    maxOutputBytes: given.maxOutputBytes ?? 262_144,
    timeoutMs: given.timeoutMs ?? 0,
    reject: given.reject ?? true,
    killSignal: given.killSignal ?? 'SIGTERM',
    forceKillAfterMs: given.forceKillAfterMs ?? 2000,
    rlimits:
      given.rlimits === undefined || Object.keys(given.rlimits).length === 0 ? undefined : given.rlimits,
    cancelSignal: given.cancelSignal,
    cleanup: given.cleanup ?? true,
    scheduler: given.scheduler ?? asyncScheduler,
    port: given.port,
    demand: given.demand,
  };
}
