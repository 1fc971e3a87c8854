import type { Observable } from 'rxjs';
import type { ToolChunk } from '../tools/tool-chunk.js';
import type { RunnerExitInfo } from './runner-exit-info.js';

/**
 * Options of {@link RunnerHandle.wait}.
 *
 * - `onChunk` — called with every chunk (runner-emitted and tool-emitted) in real time, those that
 *   arrived before `wait()` first; whatever it throws is swallowed;
 * - `timeoutMs` — deadline from the call, by the supervisor's scheduler (0 or absent = none). It
 *   holds while a tool call is running: the runner's process group and the tool's are both killed.
 */
export interface RunnerWaitOptions {
  readonly onChunk?: ((chunk: ToolChunk) => void) | undefined;
  readonly timeoutMs?: number | undefined;
}

/**
 * A running runner, as returned by `supervisor.spawn()`.
 *
 * - `pid` — its kernel process id (what its tool calls see as `ctx.pid`);
 * - `wait(options)` — resolves with its {@link RunnerExitInfo} once it exits (or is killed);
 *   rejects only when it could not start (e.g. a `SpawnError`);
 * - `chunks$` — the same chunks as an Observable: replays those kept so far (the first
 *   `maxChunks`), then follows live, and completes when the runner is gone (`observe()` returns it
 *   too);
 * - `kill()` — stops it now (process group, running tools included).
 */
export interface RunnerHandle {
  readonly pid: number;
  readonly chunks$: Observable<ToolChunk>;
  observe(): Observable<ToolChunk>;
  wait(options?: RunnerWaitOptions): Promise<RunnerExitInfo>;
  kill(): void;
}
