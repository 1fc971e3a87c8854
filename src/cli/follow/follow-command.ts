import type { ChunkEvent } from '../../core/chunk.js';
import { followRun } from '../../runs/follow-run.js';
import { toRunFailure } from '../../runs/run-failure.js';
import type { RunStore } from '../../runs/run-store.js';
import { CliUsageError, flagError, readIntegerFlag } from '../cli-usage-error.js';
import { failureExitCode, mirrorExitCode } from '../exit-code.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { REDIS_CONNECTION_FLAGS, readRedisConnection } from '../redis-store-flags.js';
import { docsUrl, HELP_FLAG, type Subcommand } from '../subcommand.js';
import type { CliStreams } from '../text-view.js';
import { writePaced } from '../write-paced.js';
import { CastView, type FollowView } from './cast-view.js';

/** The text `sluice follow --help` prints. */
const followHelpText = `sluice follow — print a run's output from any machine that reaches its Redis, live

Usage:
  sluice follow --redis <url> <run-id> [--after <seq>] [--json [--wire bridge|serde] [--call-id <id>]]
                [--cast <file>]

Prints the run's events from the first one still retained (or after --after), then live until the
run ends, and exits with the run's exit code. stdout lines go to stdout, stderr lines to stderr.
Events the store's retention trimmed are said on stderr, and the retained ones follow.

Options:
  --redis <url>             the Redis the run is published to (redis:// or rediss://); needs the
                            optional peer ioredis
  --redis-cluster <h:p,…>   the startup nodes of the Redis Cluster it is published to, instead
  --redis-timeout-ms <n>    give up when Redis has not answered for this long (default: 5000)
  --after <seq>             start after this sequence number (resume where a previous follow stopped)
  --json                    print the frames \`sluice exec --json\` prints for the same run, one per
                            line: {"callId":…,"outcome":{…}} (a stdout line's outcome has the line as
                            its chunk, a stderr line {"stderr":…}; the last frame ends the run):
                            ${docsUrl('protocol.md')}, "Runs from a store"
  --wire bridge|serde       the outcome encoding for --json (default: bridge; serde: {call_id, outcome})
  --call-id <id>            the callId written in --json frames (default: sluice-1)
  --cast <file>             also write the run to <file> as an asciicast v2 recording, for
                            \`asciinema play <file>\`: ${docsUrl('terminal.md')}, "Recording"
  -h, --help                show this help

The exit code is the run's, mirrored as \`sluice exec\` does (its own code, 128 + n after signal n,
124 after a timeout or stall, 127 when the command was not found, 126 when it could not be
started), 130 for a cancelled run, and 1 for a run that failed otherwise or cannot be read.

Examples:
  sluice follow --redis redis://127.0.0.1:6379 build-7
  sluice follow --redis redis://127.0.0.1:6379 build-7 --after 41
  sluice follow --redis redis://127.0.0.1:6379 build-7 --json | jq -j '.outcome.chunk | strings'
`;

const FOLLOW_FLAGS = {
  ...HELP_FLAG,
  ...REDIS_CONNECTION_FLAGS,
  'redis-timeout-ms': { type: 'string' },
  after: { type: 'string' },
  json: { type: 'boolean' },
  wire: { type: 'string' },
  'call-id': { type: 'string' },
  cast: { type: 'string' },
} as const;

const USAGE =
  'sluice follow --redis <url> <run-id> [--after <seq>] [--json [--wire bridge|serde]] [--cast <file>]';

/** `sluice follow`: its help text says what it does. */
export const followCommand: Subcommand = {
  summary: `${USAGE}\n                            print a run's events from any machine, live, and exit with its code`,
  help: followHelpText,
  flags: FOLLOW_FLAGS,
  run: async (argv, io, _env, signal) => {
    const { values, positionals } = parseSubcommandArgs(argv, FOLLOW_FLAGS);
    const connection = readRedisConnection(values, USAGE);
    const [runId, ...extra] = positionals;
    if (runId === undefined || extra.length > 0) throw new CliUsageError(`Expected one run id: \`${USAGE}\``);
    const after = readIntegerFlag(
      'after',
      values.after as string | undefined,
      -1,
      0,
      Number.MAX_SAFE_INTEGER,
    );
    const wire = (values.wire as string | undefined) ?? 'bridge';
    if (wire !== 'bridge' && wire !== 'serde') throw flagError('wire', '`bridge` or `serde`', wire);
    const callId = (values['call-id'] as string | undefined) ?? 'sluice-1';
    if (callId === '') throw flagError('call-id', 'a non-empty string', callId);
    const { RedisRunStore, isRunId } = await import('../../redis/index.js');
    if (!isRunId(runId)) throw new CliUsageError(`Not a run id: \`${runId}\``);
    const timeout = values['redis-timeout-ms'] as string | undefined;
    const failAfterMs =
      timeout === undefined ? {} : { failAfterMs: readIntegerFlag('redis-timeout-ms', timeout, 0, 1) };
    // The wire codecs (and zod) are loaded for `--json` only: `sluice exec` shares this module.
    const printer =
      values.json === true
        ? new (await import('../run-frame-writer.js')).RunFrameWriter(io, wire, callId)
        : new TextFollower(io, runId);
    const castPath = values.cast as string | undefined;
    // Opened before the store, so that a path that cannot be written leaves no connection behind.
    const cast = castPath === undefined ? undefined : new CastView(printer, castPath);
    const store = new RedisRunStore({ ...connection, ...failAfterMs, failFast: true });
    const code = await follow(store, runId, after, cast ?? printer, signal).finally(() => store.close());
    await cast?.close();
    return code;
  },
};

function follow(
  store: RunStore,
  runId: string,
  after: number,
  view: FollowView,
  signal: AbortSignal | undefined,
): Promise<number> {
  let ended = false;
  return new Promise((resolve) => {
    const subscription = followRun(
      store,
      runId,
      { after },
      {
        event: (event) => {
          if (event.isFinal) ended = true;
          return view.event(event);
        },
        gap: ({ from, to }) => view.gap(from, to),
        failure: (failure) => {
          ended = true;
          return view.failure(failure);
        },
        error: (error) => {
          signal?.removeEventListener('abort', abort);
          if (signal?.aborted) return resolve(130);
          void Promise.resolve(view.failure(toRunFailure(error))).then(() => resolve(view.code));
        },
        // A read that ends without the run's end: it began past the final event (`--after`).
        complete: () => {
          signal?.removeEventListener('abort', abort);
          resolve(ended || after >= 0 ? view.code : 1);
        },
      },
    );
    const abort = () => {
      subscription.unsubscribe();
      resolve(130);
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

/** `follow`'s text view: the lines to stdout and stderr, what is not a line said on stderr. */
class TextFollower implements FollowView {
  code = 0;
  readonly #io: CliStreams;
  readonly #runId: string;

  constructor(io: CliStreams, runId: string) {
    this.#io = io;
    this.#runId = runId;
  }

  event(event: ChunkEvent<unknown>): Promise<void> | undefined {
    if (event.isFinal) this.code = this.#finalCode(event);
    if (typeof event.content !== 'string') return undefined;
    if (event.kind === 'stdout') return writePaced(this.#io.stdout, event.content);
    if (event.kind === 'stderr') return writePaced(this.#io.stderr, event.content);
    return undefined;
  }

  gap(from: number, to: number): Promise<void> | undefined {
    const count = to - from + 1;
    return writePaced(
      this.#io.stderr,
      `sluice: run ${this.#runId}: events ${from}..${to} (${count}) were trimmed by the store's retention; following from ${to + 1}\n`,
    );
  }

  failure(failure: { code: string; message: string }): Promise<void> | undefined {
    this.code = failureExitCode(failure);
    return writePaced(this.#io.stderr, `sluice: run ${this.#runId}: ${failure.code}: ${failure.message}\n`);
  }

  #finalCode(event: ChunkEvent<unknown>): number {
    if (event.kind === 'exit' && typeof event.content === 'object' && event.content !== null) {
      const {
        exitCode = null,
        signal = null,
        timedOut = false,
      } = event.content as {
        exitCode?: number | null;
        signal?: string | null;
        timedOut?: boolean;
      };
      return mirrorExitCode({ exitCode, signal, timedOut });
    }
    const reason = String(event.metadata?.reason ?? event.kind);
    this.#io.stderr.write(`sluice: run ${this.#runId} ended: ${reason}\n`);
    return reason === 'stalled' ? 124 : 130;
  }
}
