import type { Observable, ObservedValueOf } from 'rxjs';
import { stallTimeout } from '../operators/stall-timeout.js';
import { quoteCommand } from '../sources/exec/quote-command.js';
import { type ExecEvent, exec } from '../sources/exec.js';
import { childIo } from './child-io.js';
import { cliExecOptions, markTerminal } from './cli-exec-options.js';
import { execHelpText } from './exec-help.js';
import { type CliExecCommand, EXEC_FLAGS, parseExecArgs } from './parse-args.js';
import { publishInterruptible } from './publish-interruptible.js';
import { runText } from './run-text.js';
import type { Subcommand } from './subcommand.js';
import type { CliStreams } from './text-view.js';

/** `sluice exec [options] -- <command> [args…]`: runs the command and shows its output live. */
export const execCommand: Subcommand = {
  summary: 'sluice exec [options] -- <command> [args…]',
  help: execHelpText,
  flags: EXEC_FLAGS,
  run: (argv, io, env, signal) => runExec(parseExecArgs(argv), io, env, signal),
};

/**
 * Runs a parsed `sluice exec` (or the demo, with `demo` set: labelled `demo`, no echo line) and
 * resolves with its exit code. What only some runs need is loaded when they need it: `sluice exec
 * -- cmd` starts with the text view alone (the wire codecs, the web server and Redis stay unloaded).
 */
export async function runExec(
  run: CliExecCommand,
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
  demo = false,
): Promise<number> {
  if (run.json && run.redisStore !== undefined) {
    return (await import('./exec-redis/run-json-published.js')).runJsonPublished(run, io, signal);
  }
  if (run.json) return (await import('./run-json.js')).runJson(run, io, signal);
  return runTextCommand(run, demo, io, env, signal);
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
  // The summary line names the command as the echo line shows it: quoted as a shell would need it.
  const echo = demo ? undefined : quoteCommand(run.file, run.args);
  const label = echo ?? 'demo';
  const view = { live, color, bufferSize: run.bufferSize, label, echo, signal, reads: run.tty };
  // --redis: the run is published there (with --web, by the page's run registry, on that store).
  const publisher =
    run.redisStore === undefined
      ? undefined
      : await (await import('./exec-redis/open-run-publisher.js')).openRunPublisher<TextEvent>(
          run.redisStore,
          run.runId,
          label,
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
    ...cliExecOptions(run, signal, io, { statusLine: live }),
    ...childIo(io, env, { color, stdin: run.stdin }),
  };
  // On a terminal, text lines under the status line; elsewhere the bytes, read by read, unchanged
  // (but text when the run is published or served: followers and pages read text). A terminal
  // run's text comes read by read (`--tty`).
  const source =
    live || run.redisStore !== undefined || run.web !== undefined
      ? exec(run.file, run.args, options)
      : exec(run.file, run.args, { ...options, lines: false, encoding: 'buffer' });
  return (source as Observable<ExecEvent<string | Uint8Array>>).pipe(
    markTerminal(options),
    stallTimeout({
      ms: run.stallTimeoutMs,
      logger: { warn: (message) => io.stderr.write(`sluice: ${message}\n`) },
    }),
  );
}
