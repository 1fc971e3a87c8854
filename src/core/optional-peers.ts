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
