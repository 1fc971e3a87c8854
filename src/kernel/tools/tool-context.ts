import type { Demand } from '../../core/demand.js';
import type { ToolChunk } from './tool-chunk.js';

/**
 * What a tool handler is given besides its arguments.
 *
 * - `pid` — the kernel process id of the caller (a runner's id in the supervisor);
 * - `kernel` — the kernel object, if the host has one (`undefined` otherwise);
 * - `onChunk` — present only when somebody listens for streamed chunks. Handlers MAY call it with
 *   `{ op: 'chunk', kind, content, metadata? }`; it never throws back at the tool (a listener that
 *   throws is caught at the dispatch boundary), but a payload of the wrong shape is a `TypeError`;
 * - `signal` — aborted when the caller gives up (runner timeout, runner exit, cancel): a tool that
 *   started a process must kill it then;
 * - `demand` — present when the chunk listener can fall behind (an MCP client on a slow
 *   transport): while it is paused a tool that can wait should stop producing chunks. The Exec
 *   tool stops reading the child's pipes, so the child blocks (docs/backpressure.md).
 */
export interface ToolContext<K = unknown> {
  readonly pid: number;
  readonly kernel: K | undefined;
  readonly onChunk?: ((chunk: ToolChunk) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly demand?: Demand | undefined;
}
