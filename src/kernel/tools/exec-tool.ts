import type { Observable } from 'rxjs';
import { CancelledError, isCancelledError } from '../../core/errors/cancelled-error.js';
import { isSpawnError } from '../../core/errors/spawn-error.js';
import { subscribeWithDemand } from '../../core/subscriber-chain.js';
import { renderTerminal, type TerminalEvent } from '../../operators/render-terminal.js';
import { OutputAccumulator } from '../../sources/exec/output-accumulator.js';
import { type ExecEvent, type ExecExitEvent, type ExecResult, exec } from '../../sources/exec.js';
import { errorTypeOf, type SpanEndReason, startRunSpan } from '../../trace/run-span.js';
import { toWireNames } from '../protocol/wire-names.js';
import {
  type ExecToolArgs,
  type ExecToolConfig,
  execToolArgsSchema,
  toExecOptions,
} from './exec-tool-args.js';
import { type ExecToolResult, execToolResultSchema } from './exec-tool-result.js';
import type { ToolContext, ToolDefinition } from './tool.js';

/**
 * Creates the `Exec` tool (docs/protocol.md, "The Exec tool"): runs `argv` on the `exec` source
 * in its own process group (and cgroup, per `config.containment`) with rlimits, a timeout and an
 * output cap, and answers an {@link ExecToolResult}. With `stream: true` and a context `onChunk`,
 * every output line is a chunk as it arrives; while `ctx.demand` is paused the child's pipes are
 * not read. Aborting `ctx.signal` kills the group and rejects with a `CancelledError` whose
 * `info.result` is the partial result. `tty: true` needs the optional peer `@xterm/headless`
 * (`PEER_MISSING` without it; docs/terminal.md, "Agents: the Exec tool on a terminal").
 *
 * @example
 * ```ts
 * import { createExecTool, createToolRegistry } from 'sluice/kernel';
 * const registry = createToolRegistry().register(createExecTool());
 * ```
 */
export function createExecTool(config: ExecToolConfig = {}): ToolDefinition<ExecToolArgs, ExecToolResult> {
  return {
    name: 'Exec',
    schema: execToolArgsSchema,
    description:
      'Runs a program (argv[0], no shell) in its own process group with a wall-clock timeout, an output cap ' +
      'and resource limits, and answers its exit code and output.',
    outputSchema: execToolResultSchema,
    handler: (args, ctx) => runExecTool(args, ctx, config),
    encodeResult: (result) => toWireNames({ ...result }),
  };
}

function runExecTool(args: ExecToolArgs, ctx: ToolContext, config: ExecToolConfig): Promise<ExecToolResult> {
  const streaming = args.stream && ctx.onChunk !== undefined;
  const [file = '', ...rest] = args.argv;
  const options = toExecOptions(args, config);
  if (ctx.signal !== undefined) options.cancelSignal = ctx.signal;
  const terminal = typeof options.tty === 'object' ? options.tty : undefined;
  const finished = terminal === undefined ? undefined : new OutputAccumulator(args.max_output_bytes);
  const run = exec(file, rest, options);
  // A terminal run's events go through the renderer: finished lines, then the exit (no screens: not asked for).
  const source: Observable<ExecEvent | TerminalEvent<ExecExitEvent>> =
    terminal === undefined ? run : run.pipe(renderTerminal<ExecExitEvent>(terminal));
  // The tool call's span (the GenAI conventions' `execute_tool`), parent of the run's own.
  const span = startRunSpan('tool', 'execute_tool Exec', TOOL_ATTRIBUTES);
  return new Promise<ExecToolResult>((resolve, reject) => {
    const observer = {
      next: (event: ExecEvent | TerminalEvent<ExecExitEvent>) => {
        if (event.kind === 'exit') {
          span.end(toolEndReason(event.content));
          resolve(toResult(event.content, finished));
        } else if (event.kind === 'line') {
          const line = `${event.content}\n`;
          finished?.add(Buffer.from(line));
          if (streaming) emit(ctx, 'stdout', line, false);
        } else if (streaming && event.kind !== 'screen') {
          emit(ctx, event.kind, event.content, event.metadata?.partial === true);
        }
      },
      error: (error: unknown) => {
        const cancelled = isCancelledError(error);
        span.end(cancelled ? 'cancel' : isSpawnError(error) ? 'spawn_failure' : 'error', {
          errorType: errorTypeOf(error),
          message: (error as Error)?.message,
        });
        if (!cancelled) return reject(error);
        const partial = error.info?.result as ExecResult | undefined;
        const result = partial === undefined ? undefined : toResult(partial, finished);
        const message = `Exec \`${file}\` was cancelled`;
        reject(new CancelledError(message, { reason: error.info?.reason, result }, { cause: error }));
      },
    };
    span.within(() => subscribeWithDemand(source, ctx.demand ?? null, observer));
  });
}

const TOOL_ATTRIBUTES = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'Exec' } as const;

/** The tool span's reason: how the run ended; its status is an error only when the call fails. */
function toolEndReason(result: ExecResult): SpanEndReason {
  if (result.timedOut) return 'timeout';
  return result.signal === null ? 'exit' : 'signal';
}

function emit(ctx: ToolContext, kind: 'stdout' | 'stderr', content: string, partial: boolean): void {
  const metadata = partial ? { tool: 'Exec', partial: true } : { tool: 'Exec' };
  try {
    ctx.onChunk?.({ op: 'chunk', kind, content, metadata });
  } catch {
    // A listener that throws must not stop the run (dispatchToolCall already guards it).
  }
}

/** The tool's result; a terminal run's `stdout` is its `finished` lines, capped as the raw output was. */
function toResult(result: ExecResult, finished: OutputAccumulator | undefined): ExecToolResult {
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: finished === undefined ? result.stdout : finished.text(),
    stderr: result.stderr,
    truncated: finished === undefined ? result.truncated : finished.truncated,
    timedOut: result.timedOut,
    ...(result.rlimitHit === null ? {} : { rlimitHit: result.rlimitHit }),
    ...(result.limitHit === null ? {} : { limitHit: result.limitHit }),
    durationMs: result.durationMs,
    containment: result.containment,
    ...(result.usage === null ? {} : { usage: { ...result.usage } }),
  };
}
