import { once } from 'node:events';
import { onChunk } from '../../adapters/on-chunk.js';
import type { ChunkEvent } from '../../core/chunk.js';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import { fromRunStore } from '../../runs/from-run-store.js';
import { CliUsageError } from '../cli-usage-error.js';
import { failureExitCode, mirrorExitCode } from '../exit-code.js';
import { parseSubcommandArgs } from '../parse-subcommand-args.js';
import { redisUrlFlag } from '../redis-url-flag.js';
import type { Subcommand } from '../subcommand.js';
import type { CliStreams } from '../text-view.js';
import { wholeNumberFlag } from '../whole-number-flag.js';
import { followHelpText } from './follow-help.js';

const USAGE = 'sluice follow --redis <url> <run-id> [--after <seq>] [--json]';

/**
 * `sluice follow --redis <url> <run-id> [--after <seq>] [--json]`: prints a run's events from any
 * machine that reaches its Redis, live until the run ends, and exits with the run's exit code.
 * Text: stdout lines to stdout, stderr lines to stderr. `--json`: one event per line as JSON
 * (`{sequence, kind, content, metadata?, isFinal}`), and a failure as `{"failure": {code, name,
 * message}}`. Exit code: the command's (mirrored as `sluice exec` does), `130` for a cancelled
 * run, `127`/`126` for a command that could not be started (as `sluice exec`, see
 * `failureExitCode`), `1` for another failure (its code printed: `OWNER_LOST`, …) or a run that
 * cannot be read (`RUN_NOT_FOUND`, a gap in trimmed history). Writes wait for `'drain'`, and a slow
 * reader pauses the Redis reads.
 *
 * @example
 * ```ts
 * process.exitCode = await followCommand.run(['--redis', url, 'build-7', '--after', '41'], process, process.env);
 * ```
 */
export const followCommand: Subcommand = {
  summary: `${USAGE}\n                            print a run's events from any machine, live, and exit with its code`,
  help: followHelpText,
  run: async (argv, io, _env, signal) => {
    const { values, positionals } = parseSubcommandArgs(argv, {
      redis: { type: 'string' },
      after: { type: 'string' },
      json: { type: 'boolean' },
    });
    const url = redisUrlFlag(values.redis as string | undefined, USAGE);
    const [runId, ...extra] = positionals;
    if (runId === undefined || extra.length > 0) throw new CliUsageError(`Expected one run id: \`${USAGE}\``);
    const after = wholeNumberFlag(
      'after',
      values.after as string | undefined,
      -1,
      0,
      Number.MAX_SAFE_INTEGER,
    );
    const { RedisRunStore, isRunId } = await import('../../redis/index.js');
    if (!isRunId(runId)) throw new CliUsageError(`Not a run id: \`${runId}\``);
    const store = new RedisRunStore({ url });
    return follow(store, runId, after, values.json === true, io, signal).finally(() => store.close());
  },
};

async function follow(
  store: import('../../redis/index.js').RedisRunStore,
  runId: string,
  after: number,
  json: boolean,
  io: CliStreams,
  signal: AbortSignal | undefined,
): Promise<number> {
  const write = (stream: CliStreams['stdout'] | CliStreams['stderr'], text: string) =>
    stream.write(text) ? undefined : once(stream, 'drain').then(() => undefined);
  let code = 0;
  try {
    await onChunk(
      fromRunStore(store, runId, { after }),
      (event: ChunkEvent<unknown>) => {
        if (event.isFinal) code = finalCode(event, runId, io, json);
        if (json) return write(io.stdout, `${JSON.stringify(event)}\n`);
        if (event.kind === 'stdout' && typeof event.content === 'string')
          return write(io.stdout, event.content);
        if (event.kind === 'stderr' && typeof event.content === 'string')
          return write(io.stderr, event.content);
        return undefined;
      },
      { bufferSize: 64, ...(signal === undefined ? {} : { signal }) },
    );
    return code;
  } catch (error) {
    if (signal?.aborted) return 130;
    const failure = {
      code: isSluiceError(error) ? error.code : 'STREAM_FAILED',
      name: error instanceof Error ? error.name : 'Error',
      message: error instanceof Error ? error.message : String(error),
    };
    if (json) await write(io.stdout, `${JSON.stringify({ failure })}\n`);
    io.stderr.write(`sluice: run ${runId}: ${failure.code}: ${failure.message}\n`);
    return failureExitCode(error);
  }
}

function finalCode(event: ChunkEvent<unknown>, runId: string, io: CliStreams, json: boolean): number {
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
  if (!json) io.stderr.write(`sluice: run ${runId} ended: ${reason}\n`);
  return reason === 'stalled' ? 124 : 130;
}
