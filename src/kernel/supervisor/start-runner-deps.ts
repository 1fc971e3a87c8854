import type { SchedulerLike } from 'rxjs';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { MalformedLine } from './runner-exit-info.js';

/**
 * What {@link startRunner} needs besides the link.
 *
 * @example
 * ```ts
 * const deps: StartRunnerDeps = { pid: 1, registry, scheduler: asyncScheduler, onMalformed: console.warn };
 * ```
 */
export interface StartRunnerDeps {
  readonly pid: number;
  readonly registry: ToolRegistry;
  readonly kernel?: unknown;
  readonly scheduler: SchedulerLike;
  /** Told about every malformed stdout line as it arrives (they are also in `RunnerExitInfo.malformed`). */
  readonly onMalformed?: ((malformed: MalformedLine) => void) | undefined;
}
