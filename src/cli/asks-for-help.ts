/**
 * Whether a subcommand's arguments ask for its help: `--help` or `-h` before `--` (after it, they
 * belong to the command to run: `sluice submit … -- grep -h x` is no question).
 *
 * @example
 * ```ts
 * asksForHelp(['--redis', url, '--help']); // true
 * asksForHelp(['--redis', url, '--', 'grep', '-h', 'x']); // false
 * ```
 */
export function asksForHelp(argv: readonly string[]): boolean {
  const split = argv.indexOf('--');
  return (split === -1 ? argv : argv.slice(0, split)).some((arg) => arg === '--help' || arg === '-h');
}
