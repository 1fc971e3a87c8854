/**
 * The result of the Exec tool in TypeScript — the same shape whether it streamed or not; the
 * names are the `exec` source's (`ExecResult`). In a `tool_result` message and an MCP
 * structured result it travels in the wire's names (`ExecToolWireResult`: `exit_code`, …,
 * docs/protocol.md, "Names on the wire").
 *
 * - `exitCode` — the exit code, or `null` when the child died by a signal (see `signal`);
 * - `stdout` / `stderr` — the output, each capped at `max_output_bytes` (`truncated` says so);
 * - `timedOut` — the wall-clock limit killed it;
 * - `rlimitHit` — present only when a resource limit killed it (`'cpu'`, `'fileSize'`, …);
 * - `limitHit` — present only when a tree-wide limit of the host's config ended it (`'memory'`, `'pids'`);
 * - `durationMs` — wall-clock run time;
 * - `containment` — `'cgroup'` (its own cgroup: daemons it started were killed with it) or `'group'`;
 * - `usage` — with a cgroup, the CPU time of every process it started (`cpuUserMs`,
 *   `cpuSystemMs`), and where the controllers are enabled `memoryPeakBytes` and `pidsPeak`.
 */
export interface ExecToolResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
  readonly rlimitHit?: 'cpu' | 'addressSpace' | 'fileSize' | 'openFiles';
  readonly limitHit?: 'memory' | 'pids';
  readonly durationMs: number;
  readonly containment: 'cgroup' | 'group';
  readonly usage?: ExecToolUsage;
}

/** What a command of the Exec tool used (its `usage`, with a cgroup): see {@link ExecToolResult}. */
export interface ExecToolUsage {
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly memoryPeakBytes?: number;
  readonly pidsPeak?: number;
}
