import { isPeerMissingError } from '../core/errors/peer-missing-error.js';
import { withRemoteParent } from '../trace/trace-context.js';
import { asksForHelp } from './asks-for-help.js';
import { CliUsageError } from './cli-usage-error.js';
import { envTraceCarrier } from './env-trace-carrier.js';
import { overviewHelp, subcommands } from './subcommands.js';
import type { CliStreams } from './text-view.js';
import { packageVersion } from './version.js';

/**
 * Runs the `sluice` command line and resolves with the process exit code. `main.ts` (the
 * package's `bin`) calls it with the real process; tests call it with fake streams.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['exec', '--', 'ls', '-la'], process, process.env);
 * ```
 */
export async function runCli(
  argv: readonly string[],
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<number> {
  try {
    // In the trace of TRACEPARENT, when the environment has one: every run is then its child.
    return await withRemoteParent(envTraceCarrier(env), () => runCommand(argv, io, env, signal));
  } catch (error) {
    // An optional peer (ioredis, the MCP SDK) not installed: say what to install, no stack.
    if (!isPeerMissingError(error)) throw error;
    io.stderr.write(`sluice: ${error.message}\n`);
    return 1;
  }
}

/**
 * The command named first (the demo with no arguments), or its help when its arguments ask for
 * it; the overview and the version. A usage error is printed and is exit code 2.
 */
async function runCommand(
  argv: readonly string[],
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<number> {
  const [name = 'demo', ...rest] = argv;
  if (name === '--help' || name === '-h') {
    io.stdout.write(overviewHelp());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`sluice ${packageVersion()}\n`);
    return 0;
  }
  const command = subcommands.get(name);
  try {
    if (command === undefined) {
      const known = [...subcommands.keys()].map((each) => `\`${each}\``).join(', ');
      throw new CliUsageError(`Unknown command \`${name}\`: expected one of ${known}, or \`--help\``);
    }
    if (asksForHelp(rest)) {
      io.stdout.write(command.help);
      return 0;
    }
    return await command.run(rest, io, env, signal);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    const topic = command === undefined ? '' : `${name} `;
    io.stderr.write(`sluice: ${error.message}\nTry \`sluice ${topic}--help\`.\n`);
    return 2;
  }
}
