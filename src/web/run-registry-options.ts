import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { readInteger } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { MemoryRunStore } from '../runs/memory-run-store.js';
import type { RunStore } from '../runs/run-store.js';
import type { ReplayBounds } from '../runs/sse/replay-log.js';

/**
 * Options of a {@link RunRegistry}: its limits and its retention. Checked when the registry is
 * created. See `docs/web.md` for what they bound.
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
  /**
   * Bounds of each run's replay log in the registry's own memory store. Defaults:
   * `maxEvents: 100_000`, `maxBytes: 16 MiB`. Not with `store` (that store has its own bounds).
   */
  readonly replay?: { readonly maxEvents?: number; readonly maxBytes?: number };
  /** Folder of the full-log files (`<id>.log`); `false`: no full log, no download. Default: a new temp folder. */
  readonly logDir?: string | false;
  /**
   * Where runs live: a store shared with other servers (a `RedisRunStore`: any of them shows,
   * resumes and cancels any run). Default: a `MemoryRunStore` of this registry's own.
   */
  readonly store?: RunStore;
  /** The clock of retention. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** The checked settings of a {@link RunRegistry}, every field filled in. */
export interface RunRegistryConfig {
  readonly maxRuns: number;
  readonly maxViewers: number;
  readonly maxFinishedRuns: number;
  readonly retainMs: number;
  readonly replay: ReplayBounds;
  readonly logDir: string | false | undefined;
  readonly store: RunStore;
  /** Whether `store` is the registry's own memory store (which it then empties as it frees runs). */
  readonly ownStore: MemoryRunStore | undefined;
  readonly scheduler: SchedulerLike;
}

const KNOWN = [
  'maxRuns',
  'maxViewers',
  'maxFinishedRuns',
  'retainMs',
  'replay',
  'logDir',
  'store',
  'scheduler',
];

/**
 * Checks {@link RunRegistryOptions} by hand and fills in the defaults; a bad one throws a
 * `TypeError` naming it, in execa's template.
 */
export function readRunRegistryOptions(options: RunRegistryOptions = {}): RunRegistryConfig {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, KNOWN);
  const replay = options.replay ?? {};
  if (typeof replay !== 'object' || replay === null) throw optionError('replay', 'an object', replay);
  rejectUnknownOptions(replay, ['maxEvents', 'maxBytes'], 'replay.');
  const { logDir, store, scheduler = asyncScheduler } = options;
  if (logDir !== undefined && logDir !== false && (typeof logDir !== 'string' || logDir === '')) {
    throw optionError('logDir', 'a folder path or false', logDir);
  }
  if (
    store !== undefined &&
    (typeof store !== 'object' ||
      store === null ||
      typeof store.openWriter !== 'function' ||
      typeof store.read !== 'function')
  ) {
    throw optionError('store', 'a RunStore', store);
  }
  if (store !== undefined && options.replay !== undefined) {
    // `replay` bounds the registry's own memory store; a given store has its own bounds.
    throw optionError('replay', 'absent when a `store` is given (bound the store itself)', options.replay);
  }
  if (typeof scheduler?.now !== 'function' || typeof scheduler.schedule !== 'function') {
    throw optionError('scheduler', 'a SchedulerLike', scheduler);
  }
  const bounds = {
    maxEvents: readInteger(replay, 'maxEvents', 100_000, { min: 1, prefix: 'replay.' }),
    maxBytes: readInteger(replay, 'maxBytes', 16 * 1024 * 1024, { min: 1, prefix: 'replay.' }),
  };
  const config = {
    maxRuns: readInteger(options, 'maxRuns', 8, { min: 1 }),
    maxViewers: readInteger(options, 'maxViewers', 500, { min: 1 }),
    maxFinishedRuns: readInteger(options, 'maxFinishedRuns', 16),
    retainMs: readInteger(options, 'retainMs', 300_000, { max: MAX_DELAY_MS }),
    replay: bounds,
    logDir,
    scheduler,
  };
  if (store !== undefined) return { ...config, store, ownStore: undefined };
  // The registry frees its runs itself (retainMs after their last viewer left): no store retention.
  const own = new MemoryRunStore({ ...bounds, retainMs: Number.MAX_SAFE_INTEGER, scheduler });
  return { ...config, store: own, ownStore: own };
}
