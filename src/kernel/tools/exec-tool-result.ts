import { z } from 'zod';

/**
 * The result of the Exec tool, the same whether it streamed or not, in the `exec` source's names
 * (docs/protocol.md, "The Exec tool"); it travels as {@link ExecToolWireResult}. `rlimitHit` and
 * `limitHit` are present only when such a limit ended the run, `usage` only with a cgroup.
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

/** The zod schema of an {@link ExecToolResult}: the Exec tool's `outputSchema`. */
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

/** The Exec tool's result as it travels (`tool_result`, MCP), in the wire's names. */
export type ExecToolWireResult = z.infer<typeof execToolResultSchema>;
