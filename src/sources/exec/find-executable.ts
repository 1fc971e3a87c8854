import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** Where {@link findExecutable} found (or failed to find) a file. */
export type ExecutableLookup = { path: string } | { errno: 'ENOENT' | 'EACCES' };

/**
 * Resolves `file` the way `execvp` does: a name with a `/` relative to `cwd`, otherwise the first
 * executable match in `pathVariable`. `EACCES` when a match exists but cannot be executed.
 */
export function findExecutable(
  file: string,
  pathVariable: string | undefined,
  cwd?: string,
): ExecutableLookup {
  if (file.includes('/')) return check(isAbsolute(file) ? file : resolve(cwd ?? process.cwd(), file));
  let denied = false;
  for (const directory of (pathVariable ?? '').split(delimiter)) {
    if (directory === '') continue;
    const found = check(join(directory, file));
    if ('path' in found) return found;
    if (found.errno === 'EACCES') denied = true;
  }
  return { errno: denied ? 'EACCES' : 'ENOENT' };
}

function check(path: string): ExecutableLookup {
  try {
    if (!statSync(path).isFile()) return { errno: 'EACCES' };
  } catch {
    return { errno: 'ENOENT' };
  }
  try {
    accessSync(path, constants.X_OK);
    return { path };
  } catch {
    return { errno: 'EACCES' };
  }
}

/** Where sluice looks for the system tools it wraps a command in (`prlimit`, `script`): `PATH`, then the usual system folders. */
export function toolSearchPath(pathVariable: string | undefined): string {
  return `${pathVariable ?? ''}:/usr/bin:/bin:/usr/sbin:/sbin`;
}
