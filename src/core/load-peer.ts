import nodeModule from 'node:module';
import { PeerMissingError } from './errors/peer-missing-error.js';

/**
 * Loads a module of the optional peer `packageName` for `feature`, or rejects with a
 * {@link PeerMissingError} saying what to install. `load` does the `import()`, so that bundlers
 * see the specifier.
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
 * Loads the optional peer `packageName` with `require` (a CommonJS peer such as ioredis: an ES
 * module that imports it gets the same module), or throws a {@link PeerMissingError}.
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
 * The `require` to load a peer with: one made for this ES module, or CommonJS's own in a CommonJS
 * bundle. Not a named `createRequire` import, which an ES bundle's banner declares too.
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
 * Whether `error` says that `packageName` itself cannot be found — not one of its files or
 * dependencies (a broken install, not a missing peer).
 */
export function isPeerNotFound(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && new RegExp(`'${packageName}(/[^']*)?'`).test(message);
}
