import nodeModule from 'node:module';
import { PeerMissingError } from './errors/peer-missing-error.js';

/**
 * Loads (with `import()`) a module of the optional peer `packageName` for `feature`, or rejects
 * with a {@link PeerMissingError} that says what to install. `load` does the import itself, so
 * that bundlers see the specifier.
 *
 * @example
 * ```ts
 * const { Server } = await importPeer('@modelcontextprotocol/sdk', 'sluice/mcp', () => import('@modelcontextprotocol/sdk/server/index.js'));
 * ```
 */
export async function importPeer<T>(
  packageName: OptionalPeer,
  feature: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw isPeerNotFound(error, packageName)
      ? new PeerMissingError({ packageName, range: OPTIONAL_PEERS[packageName], feature }, { cause: error })
      : error;
  }
}

/**
 * Loads the optional peer `packageName` synchronously (`require`, for a CommonJS peer such as
 * ioredis: an ES module that imports it gets the very same module), or throws a
 * {@link PeerMissingError} that says what to install.
 *
 * @example
 * ```ts
 * const { Redis } = requirePeer<typeof import('ioredis')>('ioredis', 'sluice/redis');
 * ```
 */
export function requirePeer<T>(packageName: OptionalPeer, feature: string): T {
  try {
    return ownRequire()(packageName) as T;
  } catch (error) {
    if (!isPeerNotFound(error, packageName)) throw error;
    throw new PeerMissingError(
      { packageName, range: OPTIONAL_PEERS[packageName], feature },
      { cause: error },
    );
  }
}

/**
 * The `require` to load a peer with: one made for this ES module, or CommonJS's own where there
 * is no `import.meta.url` (a CommonJS bundle). Not a named `createRequire` import: an ES bundle's
 * usual banner declares one, and the two would clash. Internal.
 */
export function ownRequire(): (id: string) => unknown {
  const url: string | undefined = import.meta.url;
  return url === undefined ? require : nodeModule.createRequire(url);
}

/**
 * The optional peer dependencies and the ranges sluice supports — package.json's
 * `peerDependencies` for them (a test keeps the two equal). The error that says one is missing
 * quotes its range in the install command.
 */
export const OPTIONAL_PEERS = {
  ioredis: '^6.0.0',
  '@modelcontextprotocol/sdk': '^1.32.2',
  '@opentelemetry/api': '^1.3.0',
  '@xterm/headless': '^6.0.0',
  '@xterm/addon-serialize': '^0.14.0',
} as const;

/** The name of an optional peer dependency of sluice. */
export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

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
