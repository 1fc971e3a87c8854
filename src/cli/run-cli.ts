import type { Observable, ObservedValueOf } from 'rxjs';
import { isPeerMissingError } from '../core/errors/peer-missing-error.js';
import { stallTimeout } from '../operators/stall-timeout.js';
import { quoteCommand } from '../sources/exec/quote-command.js';
import { type ExecEvent, exec } from '../sources/exec.js';
import { withRemoteParent } from '../trace/with-remote-parent.js';
import { asksForHelp } from './asks-for-help.js';
import { childIo } from './child-io.js';
import { cliExecOptions } from './cli-exec-options.js';
import { CliUsageError } from './cli-usage-error.js';
import { demoScript } from './demo.js';
import { envTraceCarrier } from './env-trace-carrier.js';
import { execHelpText } from './exec-help.js';
import { helpText } from './help.js';
import { type CliCommand, type CliExecCommand, parseCliArgs } from './parse-args.js';
import { publishInterruptible } from './publish-interruptible.js';
import { runText } from './run-text.js';
import { subcommands } from './subcommands.js';
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

async function runCommand(
  argv: readonly string[],
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<number> {
  const parsed = await parseOrRunSubcommand(argv, io, env, signal);
  if (typeof parsed === 'number') return parsed;
  if (parsed.command === 'help') {
    const topic = parsed.topic === undefined ? undefined : subcommands.get(parsed.topic);
    io.stdout.write(parsed.topic === 'exec' ? execHelpText : (topic?.help ?? helpText));
    return 0;
  }
  if (parsed.command === 'version') {
    io.stdout.write(`sluice ${packageVersion()}\n`);
    return 0;
  }
  const run: CliExecCommand =
    parsed.command === 'demo'
      ? { ...(parseCliArgs(['exec', '--', process.execPath, '-e', demoScript]) as CliExecCommand) }
      : parsed;
  // What only some runs need is loaded when they need it: `sluice exec -- cmd` starts with the
  // text view alone (the wire codecs, the web server and Redis stay unloaded; docs/performance.md, "What start-up loads").
  if (run.json && run.redisStore !== undefined) {
    return (await import('./exec-redis/run-json-published.js')).runJsonPublished(run, io, signal);
  }
  if (run.json) return (await import('./run-json.js')).runJson(run, io, signal);
  return runTextCommand(run, parsed.command === 'demo', io, env, signal);
}

/**
 * A subcommand (`follow`, `worker`, `mcp`, …) or its help is run here and its exit code returned;
 * otherwise the parsed command line. A usage error is printed and is exit code 2.
 */
async function parseOrRunSubcommand(
  argv: readonly string[],
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
): Promise<number | CliCommand> {
  try {
    const subcommand = argv[0] === undefined ? undefined : subcommands.get(argv[0]);
    if (subcommand !== undefined && asksForHelp(argv.slice(1))) {
      io.stdout.write(subcommand.help);
      return 0;
    }
    if (subcommand !== undefined) return await subcommand.run(argv.slice(1), io, env, signal);
    return parseCliArgs(argv);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    const topic = argv[0] === 'exec' || subcommands.has(argv[0] ?? '') ? `${argv[0]} ` : '';
    io.stderr.write(`sluice: ${error.message}\nTry \`sluice ${topic}--help\`.\n`);
    return 2;
  }
}

/** `sluice exec` (or the demo) shown as text: on the terminal or pipe, and with `--web` / `--redis`. */
async function runTextCommand(
  run: CliExecCommand,
  demo: boolean,
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
): Promise<number> {
  const token = env.SLUICE_WEB_TOKEN;
  if (run.web !== undefined && token !== undefined && token.length < 16) {
    io.stderr.write('sluice: `SLUICE_WEB_TOKEN` must be at least 16 characters long\n');
    return 2;
  }
  const live = io.stdout.isTTY === true;
  const color = run.color ?? (live && env.NO_COLOR === undefined);
  let events = textEvents(run, io, env, { live, color, signal });
  const label = demo ? 'demo' : [run.file, ...run.args].join(' ');
  const echo = demo ? undefined : quoteCommand(run.file, run.args);
  const view = { live, color, bufferSize: run.bufferSize, label, echo, signal };
  // --redis: the run is published there (with --web, by the page's run registry, on that store).
  const publisher =
    run.redisStore === undefined
      ? undefined
      : await (await import('./exec-redis/open-run-publisher.js')).openRunPublisher<TextEvent>(
          run.redisStore,
          run.runId,
          echo ?? label,
          io,
        );
  try {
    if (run.web !== undefined) {
      const where = { store: publisher?.store, runId: publisher?.runId, token };
      return await (await import('./web/run-web.js')).runWeb(events, run.web, io, view, where);
    }
    if (publisher !== undefined) events = events.pipe(publishInterruptible(publisher.operator, signal));
    const code = await runText(events, io, view);
    // --redis-strict: a run that could not be published is a failure of its own (docs/scaling.md).
    return run.redisStrict && publisher?.failed() === true ? 75 : code;
  } finally {
    await publisher?.close();
  }
}

/** What the text view shows: the run's events, text lines or raw bytes, with the stall timer. */
type TextEvent = ObservedValueOf<ReturnType<typeof textEvents>>;

/** The run's events for the text view, with `--stall-timeout-ms` applied. */
function textEvents(
  run: CliExecCommand,
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  { live, color, signal }: { live: boolean; color: boolean; signal: AbortSignal | undefined },
) {
  const options = {
    reject: false,
    ...cliExecOptions(run, signal),
    ...childIo(io, env, { color, stdin: run.stdin }),
  };
  // On a terminal, text lines under the status line; elsewhere the bytes, read by read, unchanged
  // (but text lines when the run is published or served: followers and pages read lines).
  const source =
    live || run.redisStore !== undefined || run.web !== undefined
      ? exec(run.file, run.args, options)
      : exec(run.file, run.args, { ...options, lines: false, encoding: 'buffer' });
  return (source as Observable<ExecEvent<string | Uint8Array>>).pipe(
    stallTimeout({
      ms: run.stallTimeoutMs,
      logger: { warn: (message) => io.stderr.write(`sluice: ${message}\n`) },
    }),
  );
}
