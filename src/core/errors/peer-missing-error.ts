import { isSluiceError, SluiceError } from './sluice-error.js';

/** Details carried by a {@link PeerMissingError}. */
export interface PeerMissingInfo {
  /** The optional peer dependency that is not installed (`ioredis`, `@modelcontextprotocol/sdk`). */
  readonly packageName: string;
  /** The version range sluice was built against, as package.json's `peerDependencies` says. */
  readonly range: string;
  /** What needed it (`sluice/redis`, `sluice/mcp`). */
  readonly feature: string;
  /** The command that installs it: `npm install "<package>@<range>"`. */
  readonly install: string;
}

/**
 * A feature behind an optional peer dependency was used without that peer installed. Code
 * `PEER_MISSING`; the message and `info.install` say what to install (docs/reference.md,
 * "Install, peers and bundles").
 *
 * @example
 * ```ts
 * import { isPeerMissingError } from 'sluice';
 * try {
 *   await serveMcp(registry, transport);
 * } catch (error) {
 *   if (isPeerMissingError(error)) console.error(error.message); // … run `npm install "@modelcontextprotocol/sdk@^1.32.2"`
 * }
 * ```
 */
export class PeerMissingError extends SluiceError<PeerMissingInfo> {
  constructor(info: Omit<PeerMissingInfo, 'install'>, options: { cause?: unknown } = {}) {
    const install = `npm install "${info.packageName}@${info.range}"`;
    super(
      'PEER_MISSING',
      `${info.feature} needs the optional peer dependency \`${info.packageName}\`, which is not installed: run \`${install}\``,
      { info: { ...info, install }, cause: options.cause },
    );
  }

  override get name(): string {
    return 'PeerMissingError';
  }
}

/**
 * Whether `value` is a {@link PeerMissingError} (code `PEER_MISSING`), in any realm.
 *
 * @example
 * ```ts
 * if (isPeerMissingError(error)) process.exitCode = 1;
 * ```
 */
export function isPeerMissingError(value: unknown): value is PeerMissingError {
  return isSluiceError(value, 'PEER_MISSING');
}
