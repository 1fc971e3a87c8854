import type { ToolResult } from '../tools/tool-result.js';

/**
 * The NDJSON line that answers a runner's tool call: `{ op: 'tool_result', id, result }`. A
 * result that is not JSON (a cycle, a BigInt) is answered with
 * `{ ok: false, error: { code: 'TOOL_FAILED', … } }` instead, so the runner always gets an answer.
 * (Internal to the supervisor.)
 *
 * @example
 * ```ts
 * toolResultLine(7, { ok: true, value: 1 }); // '{"op":"tool_result","id":7,"result":{"ok":true,"value":1}}'
 * ```
 */
export function toolResultLine(id: string | number | null, result: ToolResult): string {
  try {
    return JSON.stringify({ op: 'tool_result', id, result });
  } catch (error) {
    const problem = { code: 'TOOL_FAILED', message: `Result is not JSON: ${(error as Error).message}` };
    return JSON.stringify({ op: 'tool_result', id, result: { ok: false, error: problem } });
  }
}
