import { readFileSync } from 'node:fs';
import { isPeerMissingError } from '../core/errors/peer-missing-error.js';
import { type TraceCarrier, withRemoteParent } from '../trace/trace-context.js';
import { CliUsageError } from './cli-usage-error.js';
import { overviewHelp, subcommands } from './subcommands.js';
import type { CliStreams } from './text-view.js';

/**
 * Runs the `sluice` command line and resolves with the process exit code. `main.ts` (the
 * package's `bin`) calls it with the real process; tests call it with fake streams.
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

/**
 * Whether a subcommand's arguments ask for its help: `--help` or `-h` before `--` (after it, they
 * belong to the command to run: `sluice submit … -- grep -h x` is no question).
 */
export function asksForHelp(argv: readonly string[]): boolean {
  const split = argv.indexOf('--');
  return (split === -1 ? argv : argv.slice(0, split)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * The version `sluice --version` prints: the package's own, from its `package.json` (two levels up
 * from `src/cli/` and from `dist/cli/` alike).
 */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/**
 * The trace context the `sluice` command was started in: `TRACEPARENT` and `TRACESTATE` of its
 * environment (OpenTelemetry's environment-variable carrier), or `undefined` without a
 * `TRACEPARENT`. Every run the command starts is then in that trace (docs/tracing.md).
 */
export function envTraceCarrier(env: NodeJS.ProcessEnv): TraceCarrier | undefined {
  const { TRACEPARENT: traceparent, TRACESTATE: tracestate } = env;
  if (traceparent === undefined || traceparent === '') return undefined;
  return tracestate === undefined || tracestate === '' ? { traceparent } : { traceparent, tracestate };
}
