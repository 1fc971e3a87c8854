import { optionError } from '../../core/option-error.js';

/**
 * The checks on `exec`'s strings that the OS would only fail later, or not at all: a NUL byte in
 * the file, an argument, `cwd` or an `env` value (the OS cannot pass one: Node throws
 * synchronously from its spawn), and an `env` name that is empty or contains `=` or NUL (the
 * child would see `A=B=c` for `{ 'A=B': 'c' }`, a different variable). Throws a `TypeError` in the
 * option template that names the field, before anything spawns.
 *
 * @example
 * ```ts
 * checkSpawnStrings('true', ['a\0b'], undefined, undefined);
 * // TypeError: Expected the `args[0]` argument to be a string without NUL bytes, got `a b` (string)
 * ```
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
