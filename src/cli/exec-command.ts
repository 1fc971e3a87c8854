import { finalize, type Observable, type ObservedValueOf } from 'rxjs';
import { fromAsyncIterable } from '../adapters/from-async-iterable.js';
import { quoteCommand } from '../sources/exec/quote-command.js';
import { type ExecEvent, exec } from '../sources/exec.js';
import { cliExecOptions, cliStallTimeout, markTerminal } from './cli-exec-options.js';
import { publishInterruptible } from './cli-interruption.js';
import { execAsText } from './exec-text.js';
import { type CliExecCommand, EXEC_FLAGS, parseExecArgs } from './parse-args.js';
import { docsUrl, type Subcommand } from './subcommand.js';
import type { CliStreams } from './text-view.js';

/** The text `sluice exec --help` prints. */
export const execHelpText = `sluice exec — run a command and stream its output live, line by line

Usage:
  sluice exec [options] -- <command> [args…]

Everything after \`--\` is the command and its arguments, passed on unchanged (\`sluice exec -- ls -la\`).

Options:
  --json                    print NDJSON {callId, outcome} frames (the hostcall wire format; serde:
                            {call_id, outcome}) instead of text
  --wire bridge|serde       the outcome encoding for --json (default: bridge)
  --call-id <id>            the callId written in --json frames (default: sluice-1)
  --timeout-ms <n>          kill the command's process group after n ms (default: 0, no timeout)
  --max-output-bytes <n>    cap on the accumulated stdout/stderr in the result (default: 262144)
  --buffer-size <n>         chunks buffered before the command is paused (default: 16)
  --stall-timeout-ms <n>    kill the command if the output reader stalls this long while the buffer
                            is full (default: 0, disabled)
  --containment auto|cgroup|group
                            contain the run in its own cgroup, which also holds daemons that leave
                            the process group (cgroup: or fail saying why; group: never; default
                            auto: a cgroup where this machine allows it; see
                            ${docsUrl('containment.md')})
  --cwd <dir>               run the command in <dir>
  --tty                     run the command on a pseudo-terminal of this terminal's size (less the
                            status line's row, resized with it), so it writes each line at once,
                            with colours; its output is shown read by read, and with --web (or
                            sluice web, with --redis) its page draws it in a terminal view
                            (needs util-linux script; see ${docsUrl('terminal.md')})
  --color / --no-color      force colours on or off (default: on for a terminal, off with NO_COLOR);
                            with colours on, the command gets FORCE_COLOR (unless already set)
  --stdin inherit|ignore    hand sluice's stdin to the command, so a prompt can read the terminal
                            (default: ignore)
  --redis <url>             also publish the run to Redis (follow it with sluice follow; with --web,
                            its page is served from Redis: sluice web shows it too); needs the
                            optional peer ioredis
  --run-id <id>             the run id to publish as (default: a random one, printed on stderr)
  --redis-cluster <h:p,…>   publish to a Redis Cluster (its startup nodes) instead of --redis
  --max-bytes <n> / --max-events <n> / --retain-ms <n>
                            what Redis keeps of the run: its newest 64 MiB / 1000000 events, for an
                            hour after its end (default); a follower is told what was trimmed
  --redis-timeout-ms <n>    publishing stops after Redis failed this long; the command goes on and
                            its exit code stands (default: 5000)
  --redis-strict            exit 75 when the run could not be published, whatever the command did
  --web                     also serve a live page of the run; its URL (with an access token) is
                            printed on stderr. --host <address> (default 127.0.0.1), --port <n>
                            (default: a free one), --allow-host <name[:port]> (another name it is
                            reached by); SLUICE_WEB_TOKEN sets the token (the same on every server
                            behind one load balancer)
  -h, --help                show this help

The exit code mirrors the command's: its own code, 128 + n after signal n, 124 on timeout or
stall, 127 when it is not found, 126 when it cannot be started, 2 for a bad sluice command line,
and 1 when sluice itself fails (an optional peer not installed, Redis unreachable). A signal to
sluice (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT) kills the command's process group and exits 128 + n
once it is gone (a second one exits at once); with --json the frames still end with exactly one
terminal frame (a CANCELLED Error). A closed output (| head) exits 141, quietly.

Examples:
  sluice exec -- npm test
  sluice exec --timeout-ms 60000 -- make -j2
  sluice exec --web -- npm test
  sluice exec --tty --web -- npm install
  sluice exec --json --wire serde -- python3 -u train.py > frames.ndjson
  sluice exec --stall-timeout-ms 30000 -- tail -f /var/log/syslog | slow-consumer
  sluice exec --redis redis://127.0.0.1:6379 --run-id build-7 -- make test
  sluice exec --web --redis redis://127.0.0.1:6379 --run-id build-7 -- make test
`;

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
    return (await import('./exec-redis.js')).execAsJsonToRedis(run, io, signal);
  }
  if (run.json) return (await import('./exec-json.js')).execAsJson(run, io, signal);
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
      : await (await import('./exec-redis.js')).openRunPublisher<TextEvent>(
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
    const code = await execAsText(events, io, view);
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
    cliStallTimeout(run, io),
  );
}

/**
 * What `sluice exec` adds to its child's options for the terminal (docs/cli.md, "`sluice exec`"):
 * `FORCE_COLOR` at the terminal's colour depth when sluice shows colours and it is unset, and with
 * `--stdin inherit` sluice's own stdin, read on demand (the child's own process group would be
 * stopped with `SIGTTIN` if it read the terminal itself).
 */
function childIo(
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  options: { color: boolean; stdin: 'inherit' | 'ignore' },
): { env?: Record<string, string>; input?: Observable<Uint8Array> } {
  const result: { env?: Record<string, string>; input?: Observable<Uint8Array> } = {};
  if (options.color && env.FORCE_COLOR === undefined) {
    const depth = (io.stdout as { getColorDepth?: () => number }).getColorDepth?.() ?? 4;
    result.env = { FORCE_COLOR: depth >= 24 ? '3' : depth >= 8 ? '2' : '1' };
  }
  if (options.stdin === 'inherit') {
    const stdin = io.stdin ?? process.stdin;
    // Once the command is done with it, let go of stdin: a terminal being read keeps Node alive.
    result.input = (fromAsyncIterable(stdin as AsyncIterable<Uint8Array>) as Observable<Uint8Array>).pipe(
      finalize(() => (stdin as { destroy?: () => void }).destroy?.()),
    );
  }
  return result;
}
