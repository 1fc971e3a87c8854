import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { z } from 'zod';
import type { ExecOptions } from '../../sources/exec.js';
import { registerBuiltinTools } from '../tools/register-builtin-tools.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { createToolRegistry } from '../tools/tool-registry.js';
import { inProcessRunnerLink } from './in-process-runner-link.js';
import { parseOptions } from './parse-options.js';
import { processRunnerLink } from './process-runner-link.js';
import type { InProcessRunner } from './runner-channel.js';
import type { MalformedLine } from './runner-exit-info.js';
import type { RunnerHandle } from './runner-handle.js';
import { startRunner } from './start-runner.js';

/**
 * Options of {@link createSupervisor}.
 *
 * - `registry` — the tools runners may call (default: a registry with the built-in tools);
 * - `kernel` — handed to tool handlers as `ctx.kernel`;
 * - `scheduler` — time for `wait({ timeoutMs })` and durations (default `asyncScheduler`);
 * - `maxMessageBytes` — longest NDJSON line from a child runner, default 1 MiB (longer ones are
 *   reported as malformed);
 * - `onMalformed` — told about each malformed runner line as it arrives;
 * - `maxChunks` — how many chunks a runner's {@link RunnerExitInfo} keeps (default 10 000; later
 *   ones are still streamed live, and counted in `chunksDropped`);
 * - `maxMalformed` — how many malformed lines it keeps (default 100; `malformedDropped` counts the rest);
 * - `maxConcurrentToolCalls` — how many tool calls of one runner run at once (default 8; the
 *   others wait their turn, in call order);
 * - `port` — the process port of the `exec` source, for tests.
 *
 * @example
 * ```ts
 * const supervisor = createSupervisor({ registry, kernel, onMalformed: (m) => log.warn(m.problem) });
 * ```
 */
export interface SupervisorOptions {
  readonly registry?: ToolRegistry | undefined;
  readonly kernel?: unknown;
  readonly scheduler?: SchedulerLike | undefined;
  readonly maxMessageBytes?: number | undefined;
  readonly onMalformed?: ((malformed: MalformedLine) => void) | undefined;
  readonly maxChunks?: number | undefined;
  readonly maxMalformed?: number | undefined;
  readonly maxConcurrentToolCalls?: number | undefined;
  readonly port?: ExecOptions['port'];
}

/**
 * Options of {@link Supervisor.spawn} for a child-process runner: its working directory and extra
 * environment variables (merged into the parent's; `undefined` removes one).
 *
 * @example
 * ```ts
 * supervisor.spawn(['python3', 'runner.py'], { cwd: '/srv/agent', env: { MODEL: 'small' } } satisfies SpawnRunnerOptions);
 * ```
 */
export interface SpawnRunnerOptions {
  readonly cwd?: string | undefined;
  readonly env?: Record<string, string | undefined> | undefined;
}

/**
 * Runs runners and answers their tool calls (see {@link createSupervisor}).
 *
 * @example
 * ```ts
 * const handle = supervisor.spawn(['python3', 'runner.py']);
 * const info = await handle.wait({ onChunk: (chunk) => process.stdout.write(String(chunk.content)) });
 * ```
 */
export interface Supervisor {
  /**
   * Starts a runner now: a child process from `argv` (its own process group, NDJSON over stdio) or
   * an {@link InProcessRunner}. Each gets the next kernel pid, from 1.
   */
  spawn(runner: readonly string[] | InProcessRunner, options?: SpawnRunnerOptions): RunnerHandle;
}

const functionSchema = z.custom<(...args: any[]) => unknown>(
  (value) => typeof value === 'function',
  'be a function',
);
const positiveInteger = z
  .number({ error: 'be a positive integer' })
  .int({ error: 'be a positive integer' })
  .positive({ error: 'be a positive integer' });
const supervisorOptionsSchema = z.strictObject({
  registry: z
    .custom<ToolRegistry>(
      (value) => typeof (value as ToolRegistry | undefined)?.get === 'function',
      'be a ToolRegistry',
    )
    .optional(),
  kernel: z.unknown().optional(),
  scheduler: z
    .custom<SchedulerLike>(
      (value) => typeof (value as SchedulerLike | undefined)?.schedule === 'function',
      'be a SchedulerLike',
    )
    .optional(),
  maxMessageBytes: positiveInteger.default(1024 * 1024),
  onMalformed: functionSchema.optional(),
  maxChunks: positiveInteger.default(10_000),
  maxMalformed: positiveInteger.default(100),
  maxConcurrentToolCalls: positiveInteger.default(8),
  port: z.unknown().optional(),
});
const spawnOptionsSchema = z.strictObject({
  cwd: z.string({ error: 'be a string' }).optional(),
  env: z
    .record(z.string(), z.string({ error: 'be a string' }).optional(), { error: 'be an object' })
    .optional(),
});
const argvSchema = z.object({
  runner: z
    .array(z.string({ error: 'be a non-empty array of strings or a function' }), {
      error: 'be a non-empty array of strings or a function',
    })
    .min(1, { error: 'be a non-empty array of strings or a function' }),
});

/**
 * Creates a {@link Supervisor}: runs runners as docs/protocol.md
 * ("Runners and the supervisor") describes them. Every chunk a runner or one
 * of its tools emits is recorded in arrival order, delivered to `wait({ onChunk })` in real time
 * and available as `handle.chunks$`; tool calls go through `dispatchToolCall` with a guarded
 * `onChunk`, so a `stream: true` Exec call streams its lines to the caller while the tool runs.
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
  const config = parseOptions(supervisorOptionsSchema, options);
  const registry = config.registry ?? registerBuiltinTools(createToolRegistry());
  const scheduler = config.scheduler ?? asyncScheduler;
  let nextPid = 1;
  return {
    spawn(runner, spawnOptions) {
      const { cwd, env } = parseOptions(spawnOptionsSchema, spawnOptions);
      let link: ReturnType<typeof inProcessRunnerLink>;
      if (typeof runner === 'function') link = inProcessRunnerLink(runner);
      else {
        const { runner: argv } = parseOptions(argvSchema, { runner });
        link = processRunnerLink(argv, {
          cwd,
          env,
          maxMessageBytes: config.maxMessageBytes,
          scheduler,
          port: options.port,
        });
      }
      return startRunner(link, {
        pid: nextPid++,
        registry,
        kernel: options.kernel,
        scheduler,
        onMalformed: options.onMalformed,
        maxChunks: config.maxChunks,
        maxMalformed: config.maxMalformed,
        maxConcurrentToolCalls: config.maxConcurrentToolCalls,
      });
    },
  };
}
