/**
 * A command line that cannot be run; the CLI prints the message and exits with code 2.
 *
 * @example
 * ```ts
 * throw new CliUsageError('Missing the command to run: `sluice exec [options] -- <command> [args…]`');
 * ```
 */
export class CliUsageError extends Error {
  override get name(): string {
    return 'CliUsageError';
  }
}
