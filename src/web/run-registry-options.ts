import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import type { ReplayBounds } from '../adapters/sse/replay-log.js';
import { toServerSentEvents } from '../adapters/to-server-sent-events.js';
import type { ChunkEvent } from '../core/chunk.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import type { RunStream } from './run-stream.js';

/**
 * Options of a {@link RunRegistry}: its limits and its retention. Checked when the registry is
 * created. See `docs/web.md` for what they bound.
 *
 * @example
 * ```ts
 * import { RunRegistry, type RunRegistryOptions } from 'sluice/web';
 *
 * const options: RunRegistryOptions = {
 *   maxRuns: 4, // a fifth start() throws RUN_LIMIT (the handler answers 429)
 *   retainMs: 60_000, // a finished run is freed a minute after its last viewer left
 *   replay: { maxEvents: 20_000 },
 * };
 * const registry = new RunRegistry(options);
 * ```
 */
export interface RunRegistryOptions {
  /** Runs that have not ended, at most. Default `8`. */
  readonly maxRuns?: number;
  /** Viewers (open SSE connections) of one run, at most. Default `500`. */
  readonly maxViewers?: number;
  /** Ended runs kept for viewers and downloads, at most (the oldest are freed first). Default `16`. */
  readonly maxFinishedRuns?: number;
  /** An ended run with no viewer is freed this long after its last viewer left, in ms. Default `300_000`. */
  readonly retainMs?: number;
  /** Bounds of each run's replay log. Defaults: `maxEvents: 100_000`, `maxBytes: 16 MiB`. */
  readonly replay?: { readonly maxEvents?: number; readonly maxBytes?: number };
  /** Folder of the full-log files (`<id>.log`); `false`: no full log, no download. Default: a new temp folder. */
  readonly logDir?: string | false;
  /** Makes each run's {@link RunStream} (the storage seam). Default: `toServerSentEvents`. */
  readonly createStream?: (source: Observable<ChunkEvent<unknown>>, replay: ReplayBounds) => RunStream;
  /** The clock of retention. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * The checked settings of a {@link RunRegistry}, every field filled in.
 *
 * @example
 * ```ts
 * const config: RunRegistryConfig = readRunRegistryOptions({ maxRuns: 2 });
 * config.retainMs; // 300000
 * ```
 */
export interface RunRegistryConfig {
  readonly maxRuns: number;
  readonly maxViewers: number;
  readonly maxFinishedRuns: number;
  readonly retainMs: number;
  readonly replay: ReplayBounds;
  readonly logDir: string | false | undefined;
  readonly createStream: (source: Observable<ChunkEvent<unknown>>, replay: ReplayBounds) => RunStream;
  readonly scheduler: SchedulerLike;
}

const KNOWN = [
  'maxRuns',
  'maxViewers',
  'maxFinishedRuns',
  'retainMs',
  'replay',
  'logDir',
  'createStream',
  'scheduler',
];

/**
 * Checks {@link RunRegistryOptions} by hand and fills in the defaults; a bad one throws a
 * `TypeError` naming it, in execa's template.
 *
 * @example
 * ```ts
 * readRunRegistryOptions({ maxRuns: 0 });
 * // TypeError: Expected the `maxRuns` option to be a positive integer, got `0` (number)
 * ```
 */
export function readRunRegistryOptions(options: RunRegistryOptions = {}): RunRegistryConfig {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, KNOWN);
  const replay = options.replay ?? {};
  if (typeof replay !== 'object' || replay === null) throw optionError('replay', 'an object', replay);
  rejectUnknownOptions(replay, ['maxEvents', 'maxBytes'], 'replay.');
  const { logDir, createStream, scheduler = asyncScheduler } = options;
  if (logDir !== undefined && logDir !== false && (typeof logDir !== 'string' || logDir === '')) {
    throw optionError('logDir', 'a folder path or false', logDir);
  }
  if (createStream !== undefined && typeof createStream !== 'function') {
    throw optionError('createStream', 'a function', createStream);
  }
  if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
    throw optionError('scheduler', 'a SchedulerLike', scheduler);
  }
  return {
    maxRuns: positive('maxRuns', options.maxRuns, 8),
    maxViewers: positive('maxViewers', options.maxViewers, 500),
    maxFinishedRuns: count('maxFinishedRuns', options.maxFinishedRuns, 16),
    retainMs: delay('retainMs', options.retainMs, 300_000),
    replay: {
      maxEvents: positive('replay.maxEvents', replay.maxEvents, 100_000),
      maxBytes: positive('replay.maxBytes', replay.maxBytes, 16 * 1024 * 1024),
    },
    logDir,
    createStream:
      createStream ?? ((source, bounds) => toServerSentEvents(source, { replay: bounds, scheduler })),
    scheduler,
  };
}

function positive(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < 1)
    throw optionError(name, 'a positive integer', value);
  return value as number;
}

function count(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw optionError(name, 'a non-negative integer', value);
  }
  return value as number;
}

function delay(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_DELAY_MS) {
    throw optionError(name, `a non-negative integer up to ${MAX_DELAY_MS}`, value);
  }
  return value as number;
}
