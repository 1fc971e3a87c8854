import type { SchedulerLike } from 'rxjs';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { MalformedLine } from './runner-exit-info.js';

/** What {@link startRunner} needs besides the link. */
export interface StartRunnerDeps {
  readonly pid: number;
  /** What the runner's span is named after (`runner <name>`): the program of a child runner. Default `in-process`. */
  readonly name?: string | undefined;
  readonly registry: ToolRegistry;
  readonly kernel?: unknown;
  readonly scheduler: SchedulerLike;
  /** Told about every malformed stdout line as it arrives (they are also in `RunnerExitInfo.malformed`). */
  readonly onMalformed?: ((malformed: MalformedLine) => void) | undefined;
  /** How many chunks `RunnerExitInfo.chunks` keeps (default 10 000); later ones are streamed, counted. */
  readonly maxChunks?: number | undefined;
  /** How many malformed lines `RunnerExitInfo.malformed` keeps (default 100). */
  readonly maxMalformed?: number | undefined;
  /** How many tool calls of the runner run at once (default 8); later ones wait their turn, in order. */
  readonly maxConcurrentToolCalls?: number | undefined;
}
