import { isAbsolute, resolve } from 'node:path';
import { optionError } from '../core/option-error.js';

/** What the Exec tool may do when served over MCP (see {@link serveMcp}), validated and defaulted. */
export interface ExecPolicy {
  /** The programs `argv[0]` may name, exactly as written (`npm`, `/usr/bin/git`, `./build.sh`). */
  readonly allow: readonly string[];
  /** Absolute working directory of Exec calls; a call's relative `cwd` is resolved against it. */
  readonly cwd: string;
  /** Default and upper bound of a call's `timeout_s`. */
  readonly timeoutS: number;
  /** The names a call's `env` may set; `undefined`: any but the loader's (`LD_*`, `DYLD_*`, `NODE_OPTIONS`). */
  readonly allowEnv: readonly string[] | undefined;
  /** A call's `cwd` must be relative and stay under {@link ExecPolicy.cwd} (no absolute path, no `..` out). */
  readonly confineCwd: boolean;
}

/** Checks the Exec options of {@link serveMcp} (defaults in `ServeMcpOptions`) in the one option-error template. */
export function readExecPolicy(options: {
  readonly allow?: unknown;
  readonly cwd?: unknown;
  readonly timeoutS?: unknown;
  readonly allowEnv?: unknown;
  readonly confineCwd?: unknown;
}): ExecPolicy {
  const { allow = [], cwd = process.cwd(), timeoutS = 60, allowEnv, confineCwd = false } = options;
  if (!Array.isArray(allow) || !allow.every(isProgram)) {
    throw optionError('allow', 'an array of program names or paths (non-empty strings)', allow);
  }
  if (typeof cwd !== 'string' || cwd === '') throw optionError('cwd', 'a non-empty string', cwd);
  if (typeof timeoutS !== 'number' || !(timeoutS > 0 && timeoutS <= 600)) {
    throw optionError('timeoutS', 'a number of seconds in (0, 600]', timeoutS);
  }
  if (allowEnv !== undefined && (!Array.isArray(allowEnv) || !allowEnv.every(isVariableName))) {
    throw optionError('allowEnv', 'an array of environment variable names', allowEnv);
  }
  if (typeof confineCwd !== 'boolean') throw optionError('confineCwd', 'a boolean', confineCwd);
  return {
    allow: [...new Set(allow as string[])],
    cwd: isAbsolute(cwd) ? cwd : resolve(cwd),
    timeoutS,
    allowEnv: allowEnv === undefined ? undefined : [...new Set(allowEnv as string[])],
    confineCwd,
  };
}

function isVariableName(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && !/[=\0]/.test(value);
}

function isProgram(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '' && !value.includes('\0');
}
