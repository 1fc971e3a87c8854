import { basename } from 'node:path';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { isSchedulerLike } from '../../core/is-scheduler-like.js';
import { optionError } from '../../core/option-error.js';
import { readFunction } from '../../core/read-function.js';
import { readInteger } from '../../core/read-integer.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import type { ExecOptions } from '../../sources/exec.js';
import { createToolRegistry, registerBuiltinTools, type ToolRegistry } from '../tools/tool-registry.js';
import type { InProcessRunner, MalformedLine, RunnerHandle } from './runner.js';
import { inProcessRunnerLink, processRunnerLink } from './runner-links.js';
import { startRunner } from './start-runner.js';

/**
 * Options of {@link createSupervisor}. `maxMessageBytes` (default 1 MiB) bounds a child runner's
 * line, longer ones are malformed; `maxChunks`, `maxMalformed` and `maxConcurrentToolCalls` are
 * {@link RunnerExitInfo}'s bounds (default 10 000, 100, 8). `containment` is `exec`'s, for runners
 * and the built-in Exec tool (default `'auto'`; with a `registry` of your own, give it to
 * `createExecTool` yourself). `port` is the `exec` source's, for tests.
 */
export interface SupervisorOptions {
  readonly registry?: ToolRegistry | undefined;
  /** Handed to tool handlers as `ctx.kernel`. */
  readonly kernel?: unknown;
  /** Time for `wait({ timeoutMs })` and durations (default `asyncScheduler`). */
  readonly scheduler?: SchedulerLike | undefined;
  readonly maxMessageBytes?: number | undefined;
  readonly onMalformed?: ((malformed: MalformedLine) => void) | undefined;
  readonly maxChunks?: number | undefined;
  readonly maxMalformed?: number | undefined;
  readonly maxConcurrentToolCalls?: number | undefined;
  readonly port?: ExecOptions['port'];
  readonly containment?: ExecOptions['containment'];
}

/**
 * Options of {@link Supervisor.spawn} for a child-process runner: its working directory and extra
 * environment variables (merged into the parent's; `undefined` removes one).
 */
export interface SpawnRunnerOptions {
  readonly cwd?: string | undefined;
  readonly env?: Record<string, string | undefined> | undefined;
}

/** Runs runners and answers their tool calls (see {@link createSupervisor}). */
export interface Supervisor {
  /**
   * Starts a runner now: a child process from `argv` (its own process group, NDJSON over stdio) or
   * an {@link InProcessRunner}. Each gets the next kernel pid, from 1.
   */
  spawn(runner: readonly string[] | InProcessRunner, options?: SpawnRunnerOptions): RunnerHandle;
}

/**
 * Creates a {@link Supervisor} of runners (docs/protocol.md, "Runners and the supervisor"): every
 * chunk a runner or its tools emit goes to `wait({ onChunk })` in real time and `handle.chunks$`.
 * With OpenTelemetry, each runner is a span over its run and its tool calls (docs/tracing.md).
 *
 * @example
 * ```ts
 * import { createSupervisor, createToolRegistry, registerBuiltinTools } from 'sluice/kernel';
 * const supervisor = createSupervisor({ registry: registerBuiltinTools(createToolRegistry()) });
 * const handle = supervisor.spawn(['python3', 'runner.py']);
 * const info = await handle.wait({ onChunk: (chunk) => console.log(chunk.kind, chunk.content), timeoutMs: 60_000 });
 * console.log(info.exitCode, info.chunks.length);
 * ```
 */
export function createSupervisor(options: SupervisorOptions = {}): Supervisor {
  const config = readSupervisorOptions(options);
  let nextPid = 1;
  return {
    spawn(runner, spawnOptions) {
      const checked = readSpawnOptions(spawnOptions);
      checkRunner(runner);
      return spawnRunner(runner, checked, nextPid++, config);
    },
  };
}

/** {@link SupervisorOptions}, checked and defaulted once, for every runner the supervisor starts. */
interface SupervisorConfig {
  readonly registry: ToolRegistry;
  readonly kernel: unknown;
  readonly scheduler: SchedulerLike;
  readonly maxMessageBytes: number;
  readonly maxChunks: number;
  readonly maxMalformed: number;
  readonly maxConcurrentToolCalls: number;
  readonly onMalformed: ((malformed: MalformedLine) => void) | undefined;
  readonly port: ExecOptions['port'];
  readonly containment: NonNullable<ExecOptions['containment']>;
}

/** The options of `createSupervisor`, checked and defaulted. */
function readSupervisorOptions(options: SupervisorOptions): SupervisorConfig {
  rejectUnknownOptions(options, [
    'registry',
    'kernel',
    'scheduler',
    'maxMessageBytes',
    'onMalformed',
    'maxChunks',
    'maxMalformed',
    'maxConcurrentToolCalls',
    'port',
    'containment',
  ]);
  const containment = readOption<NonNullable<ExecOptions['containment']>>(
    options,
    'containment',
    (value) => value === 'auto' || value === 'cgroup' || value === 'group',
    "`'auto'`, `'cgroup'` or `'group'`",
    'auto',
  );
  const registry =
    readOption<ToolRegistry, undefined>(
      options,
      'registry',
      (value) => typeof (value as ToolRegistry).get === 'function',
      'a ToolRegistry',
      undefined,
    ) ?? registerBuiltinTools(createToolRegistry(), { containment });
  return {
    registry,
    kernel: options.kernel,
    scheduler: readOption(options, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler),
    maxMessageBytes: readInteger(options, 'maxMessageBytes', 1024 * 1024, { min: 1 }),
    maxChunks: readInteger(options, 'maxChunks', 10_000, { min: 1 }),
    maxMalformed: readInteger(options, 'maxMalformed', 100, { min: 1 }),
    maxConcurrentToolCalls: readInteger(options, 'maxConcurrentToolCalls', 8, { min: 1 }),
    onMalformed: readFunction<(malformed: MalformedLine) => void, undefined>(
      options,
      'onMalformed',
      undefined,
    ),
    port: readOption<ExecOptions['port'], undefined>(
      options,
      'port',
      (value) => typeof (value as { spawn?: unknown }).spawn === 'function',
      'a ProcessPort',
      undefined,
    ),
    containment,
  };
}

/** Throws unless `runner` is a non-empty argv or a function. */
function checkRunner(runner: unknown): void {
  const isArgv = Array.isArray(runner) && runner.length > 0 && runner.every((arg) => typeof arg === 'string');
  if (typeof runner !== 'function' && !isArgv) {
    throw optionError('runner', 'a non-empty array of strings or a function', runner, 'argument');
  }
}

/** Starts one runner (`argv` as a contained child process, or a function in this process) as kernel `pid`. */
function spawnRunner(
  runner: readonly string[] | InProcessRunner,
  { cwd, env }: SpawnRunnerOptions,
  pid: number,
  config: SupervisorConfig,
): RunnerHandle {
  const { scheduler } = config;
  const link =
    typeof runner === 'function'
      ? inProcessRunnerLink(runner)
      : processRunnerLink(runner, {
          cwd,
          env,
          maxMessageBytes: config.maxMessageBytes,
          scheduler,
          port: config.port,
          containment: config.containment,
        });
  return startRunner(link, {
    pid,
    name: typeof runner === 'function' ? undefined : basename(runner[0] as string),
    registry: config.registry,
    kernel: config.kernel,
    scheduler,
    onMalformed: config.onMalformed,
    maxChunks: config.maxChunks,
    maxMalformed: config.maxMalformed,
    maxConcurrentToolCalls: config.maxConcurrentToolCalls,
  });
}

/** The options of `spawn`, checked. */
function readSpawnOptions(spawnOptions: unknown): {
  cwd: string | undefined;
  env: Record<string, string | undefined> | undefined;
} {
  rejectUnknownOptions(spawnOptions, ['cwd', 'env']);
  const cwd = readOption<string, undefined>(
    spawnOptions,
    'cwd',
    (value) => typeof value === 'string',
    'a string',
    undefined,
  );
  const env = readOption<Record<string, string | undefined>, undefined>(
    spawnOptions,
    'env',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      Object.values(value).every((item) => item === undefined || typeof item === 'string'),
    'an object of strings',
    undefined,
  );
  return { cwd, env };
}
