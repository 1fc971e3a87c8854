/**
 * Whether `error` says that `packageName` itself cannot be found — not one of its own files or
 * dependencies, which is a broken install, not a missing peer. Node's messages: `Cannot find
 * package 'x' imported from …` (`import`), `Cannot find module 'x'` (`require`).
 *
 * @example
 * ```ts
 * if (isPeerNotFound(error, 'ioredis')) throw new PeerMissingError(…);
 * ```
 */
export function isPeerNotFound(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && new RegExp(`'${packageName}(/[^']*)?'`).test(message);
}
