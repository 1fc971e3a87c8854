import { z } from 'zod';

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

/**
 * The zod schema of an {@link ExecToolResult}: the Exec tool's `outputSchema`, so a host that
 * lists tools (an MCP server, for one) can publish the result's shape as JSON Schema.
 */
export const execToolResultSchema = z.object({
  exit_code: z.number().int().nullable().describe('The exit code, or null when a signal ended the program'),
  signal: z.string().nullable().describe('The signal that ended the program (SIGTERM, SIGKILL, …), or null'),
  stdout: z.string().describe('Standard output, capped at max_output_bytes'),
  stderr: z.string().describe('Standard error, capped at max_output_bytes'),
  truncated: z.boolean().describe('Whether stdout or stderr was cut at max_output_bytes'),
  timed_out: z.boolean().describe('Whether the wall-clock limit (timeout_s) killed the program'),
  rlimit_hit: z
    .enum(['cpu', 'addressSpace', 'fileSize', 'openFiles'])
    .optional()
    .describe('The resource limit that killed the program, when one did'),
  limit_hit: z
    .enum(['memory', 'pids'])
    .optional()
    .describe('The tree-wide limit (memory, number of processes) that ended the program, when one did'),
  duration_ms: z.number().describe('Wall-clock run time in milliseconds'),
  containment: z
    .enum(['cgroup', 'group'])
    .describe(
      'How the program was contained: its own cgroup (its daemons died with it) or its process group',
    ),
  usage: z
    .object({
      cpu_user_ms: z.number().describe('CPU time in user mode of every process it started'),
      cpu_system_ms: z.number().describe('CPU time in the kernel of every process it started'),
      memory_peak_bytes: z.number().optional().describe('The most memory it held at once'),
      pids_peak: z.number().optional().describe('The most processes it had at once'),
    })
    .optional()
    .describe('What it used (only with containment cgroup)'),
});

/**
 * The Exec tool's result as it travels — in a `tool_result` message, an MCP structured result —
 * in the wire's names: {@link ExecToolResult}'s fields renamed by the table of docs/protocol.md,
 * "Names on the wire".
 */
export type ExecToolWireResult = z.infer<typeof execToolResultSchema>;
