import { constants } from 'node:os';
import { asyncScheduler, isObservable, type Observable } from 'rxjs';
import { isDemand } from '../../core/demand.js';
import { isAbortSignal } from '../../core/is-abort-signal.js';
import { isSchedulerLike } from '../../core/is-scheduler-like.js';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { optionError } from '../../core/option-error.js';
import { readBoolean } from '../../core/read-boolean.js';
import { readInteger } from '../../core/read-integer.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import { readTerminalSize } from '../../core/terminal-size.js';
import type { ExecOptions } from './exec-types.js';
import type { ContainmentOption, ExecLimits, ProcessPort, TtySize } from './process-port.js';

/** `exec`'s `tty` option as a run uses it: the terminal's first size, and the later ones. */
export interface ResolvedTty extends TtySize {
  readonly resize: Observable<TtySize> | undefined;
}

/** The options that stay optional once read: no default stands in for them. */
type WithoutDefault = 'cwd' | 'env' | 'input' | 'rlimits' | 'limits' | 'cancelSignal' | 'port' | 'demand';

/** {@link ExecOptions} with defaults applied, as `exec` runs with them. */
export type ResolvedExecOptions = {
  readonly [K in Exclude<keyof ExecOptions, 'tty'>]-?: K extends WithoutDefault
    ? ExecOptions[K] | undefined
    : Exclude<ExecOptions[K], undefined>;
} & { readonly file: string; readonly args: readonly string[]; readonly tty: ResolvedTty | undefined };

/** Every option of {@link ExecOptions}, in the order the unknown-option error lists them. */
const KNOWN = (
  'cwd env extendEnv input lines encoding maxLineBytes maxOutputBytes timeoutMs reject killSignal ' +
  'forceKillAfterMs rlimits containment limits cancelSignal cleanup propagateTrace traceCommandArgs scheduler ' +
  'port demand tty'
).split(' ');
/** The fields of `rlimits` and of `limits`, each with its least value. */
const RLIMIT_MINIMA = { cpuSeconds: 1, addressSpaceBytes: 1, fileSizeBytes: 0, openFiles: 1 };
const LIMIT_MINIMA = { memoryBytes: 1, pids: 1, cpuPercent: 1 };
const KNOWN_TTY = ['columns', 'rows', 'resize'];

/**
 * Validates the arguments and options of `exec` and applies the defaults. Throws a `TypeError`
 * that names the field, in execa's template: "Expected the `timeoutMs` option to be a
 * non-negative integer, got `-1` (number)".
 */
export function readExecOptions(
  file: unknown,
  args: unknown,
  options: ExecOptions | undefined,
): ResolvedExecOptions {
  const checked = checkArguments(file, args, options);
  const given: ExecOptions = options ?? {};
  // A misspelt option (`timeout`, `rlimits.cpu`) must not silently run without it.
  rejectUnknownOptions(given, KNOWN);
  const io = readChildIo(given);
  const containment = readOption<ContainmentOption>(
    given,
    'containment',
    (value) => value === 'auto' || value === 'cgroup' || value === 'group',
    "`'auto'`, `'cgroup'` or `'group'`",
    'auto',
  );
  const resolved: Omit<ResolvedExecOptions, 'file' | 'args'> = {
    ...io,
    ...readOutput(given),
    ...readEnding(given),
    rlimits: readWholeNumbers(given, 'rlimits', RLIMIT_MINIMA),
    containment,
    limits: readLimits(given, containment),
    cleanup: readBoolean(given, 'cleanup', true),
    propagateTrace: readBoolean(given, 'propagateTrace', true),
    traceCommandArgs: readBoolean(given, 'traceCommandArgs', false),
    scheduler: readOption(given, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler),
    port: readOption<ProcessPort, undefined>(
      given,
      'port',
      (value) => typeof (value as ProcessPort).spawn === 'function',
      'a ProcessPort',
      undefined,
    ),
    demand: readOption(given, 'demand', isDemand, 'a Demand (`paused` and `onChange()`)', undefined),
    tty: readTty(given),
  };
  checkSpawnStrings(checked.file, checked.args, io.cwd, io.env);
  return { ...checked, ...resolved };
}

/** `file`, `args` and that `options` is an object. */
function checkArguments(
  file: unknown,
  args: unknown,
  options: unknown,
): { readonly file: string; readonly args: readonly string[] } {
  if (typeof file !== 'string' || file.length === 0)
    throw optionError('file', 'a non-empty string', file, 'argument');
  if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))) {
    throw optionError('args', 'an array of strings', args, 'argument');
  }
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw optionError('options', 'an object', options, 'argument');
  }
  return { file, args: (args as readonly string[] | undefined) ?? [] };
}

/** Where and with what the child starts: `cwd`, `env`, `extendEnv`, `input`. */
function readChildIo(given: ExecOptions) {
  const cwd = readOption<string, undefined>(
    given,
    'cwd',
    (value) => typeof value === 'string' && value !== '',
    'a non-empty string',
    undefined,
  );
  const env = readOption<Record<string, string | undefined>, undefined>(
    given,
    'env',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.values(value).every((item) => item === undefined || typeof item === 'string'),
    'an object of strings',
    undefined,
  );
  const input = readOption<ResolvedExecOptions['input'], undefined>(
    given,
    'input',
    (value) => typeof value === 'string' || value instanceof Uint8Array || isObservable(value),
    'a string, a Uint8Array or an Observable',
    undefined,
  );
  return { cwd, env, extendEnv: readBoolean(given, 'extendEnv', true), input };
}

/** How the output becomes events and the result: `lines`, `encoding`, `maxLineBytes`, `maxOutputBytes`. */
function readOutput(given: ExecOptions) {
  const encoding = readOption<'utf8' | 'buffer'>(
    given,
    'encoding',
    (value) => value === 'utf8' || value === 'buffer',
    "`'utf8'` or `'buffer'`",
    'utf8',
  );
  return {
    lines: readBoolean(given, 'lines', true),
    encoding,
    maxLineBytes: readInteger(given, 'maxLineBytes', 65_536, { min: 1 }),
    maxOutputBytes: readInteger(given, 'maxOutputBytes', 262_144),
  };
}

/** How a run is ended and judged: `timeoutMs`, `reject`, `killSignal`, `forceKillAfterMs`, `cancelSignal`. */
function readEnding(given: ExecOptions) {
  const killSignal = readOption<NodeJS.Signals>(
    given,
    'killSignal',
    (value) => typeof value === 'string' && Object.hasOwn(constants.signals, value),
    'a signal name such as `SIGTERM`',
    'SIGTERM',
  );
  return {
    // Timer delays: a longer one would fire at once (see MAX_DELAY_MS).
    timeoutMs: readInteger(given, 'timeoutMs', 0, { max: MAX_DELAY_MS }),
    reject: readBoolean(given, 'reject', true),
    killSignal,
    forceKillAfterMs: readInteger(given, 'forceKillAfterMs', 2000, { max: MAX_DELAY_MS }),
    cancelSignal: readOption(given, 'cancelSignal', isAbortSignal, 'an AbortSignal', undefined),
  };
}

/** `limits`; they need a cgroup, so `containment: 'group'` refuses them. */
function readLimits(given: ExecOptions, containment: ContainmentOption): ExecLimits | undefined {
  const limits = readWholeNumbers(given, 'limits', LIMIT_MINIMA);
  if (limits !== undefined && containment === 'group') {
    throw optionError(
      'containment',
      "`'auto'` or `'cgroup'` when `limits` is given (limits need a cgroup)",
      containment,
    );
  }
  return limits;
}

/** A bag of whole numbers (`rlimits`, `limits`), each at least its minimum: only those given, `undefined` for none. */
function readWholeNumbers<K extends string>(
  given: ExecOptions,
  name: 'rlimits' | 'limits',
  minima: Readonly<Record<K, number>>,
): Partial<Record<K, number>> | undefined {
  const bag = readOption<object, undefined>(
    given,
    name,
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'an object',
    undefined,
  );
  const prefix = `${name}.`;
  rejectUnknownOptions(bag, Object.keys(minima), prefix);
  const set = Object.entries<number>(minima)
    .map(([key, min]) => [key, readInteger(bag, key, undefined, { min, prefix })] as const)
    .filter(([, value]) => value !== undefined);
  return set.length === 0 ? undefined : (Object.fromEntries(set) as Partial<Record<K, number>>);
}

/** `tty`: `true` is an 80 × 24 terminal; an object gives its size and later sizes; `false` or absent, pipes. Also read by `markTerminalSize` (sluice/web). */
export function readTty(given: ExecOptions): ResolvedTty | undefined {
  const tty = readOption<ExecOptions['tty'], undefined>(
    given,
    'tty',
    (value) =>
      typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value)),
    'a boolean or an object (`columns`, `rows`, `resize`)',
    undefined,
  );
  if (tty === undefined || tty === false) return undefined;
  if (tty === true) return { columns: 80, rows: 24, resize: undefined };
  rejectUnknownOptions(tty, KNOWN_TTY, 'tty.');
  return {
    ...readTerminalSize(tty, 'tty.'),
    resize: readOption<Observable<TtySize>, undefined>(
      tty,
      'resize',
      isObservable,
      'an Observable',
      undefined,
      'tty.',
    ),
  };
}

/**
 * The checks on `exec`'s strings that the OS would only fail later, or not at all: a NUL byte in
 * the file, an argument, `cwd` or an `env` value (the OS cannot pass one: Node throws
 * synchronously from its spawn), and an `env` name that is empty or contains `=` or NUL (the
 * child would see `A=B=c` for `{ 'A=B': 'c' }`, a different variable). Throws a `TypeError` in the
 * option template that names the field, before anything spawns.
 */
export function checkSpawnStrings(
  file: string,
  args: readonly string[],
  cwd: string | undefined,
  env: Readonly<Record<string, string | undefined>> | undefined,
): void {
  const noNul = 'a string without NUL bytes';
  if (file.includes('\0')) throw optionError('file', noNul, file, 'argument');
  args.forEach((arg, index) => {
    if (arg.includes('\0')) throw optionError(`args[${index}]`, noNul, arg, 'argument');
  });
  if (cwd?.includes('\0')) throw optionError('cwd', noNul, cwd);
  if (env === undefined) return;
  for (const [name, value] of Object.entries(env)) {
    if (name === '' || name.includes('=') || name.includes('\0')) {
      throw optionError('env', 'an object whose names are non-empty and contain no `=` or NUL', name);
    }
    if (value?.includes('\0')) throw optionError(`env.${name}`, noNul, value);
  }
}
