import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeIssue } from '../core/errors/describe-issue.js';
import { firstIssue } from '../core/errors/first-issue.js';
import type { ExecToolWireResult, ToolDefinition, ToolResult } from '../kernel/index.js';

/** The tool, the call's arguments, and how many chunks went out as progress (`undefined`: no progress token). */
export interface CallToolResultContext {
  readonly tool: ToolDefinition;
  readonly args: unknown;
  readonly streamedChunks: number | undefined;
}

/**
 * Turns a {@link ToolResult} into an MCP `CallToolResult`: a failure is `isError: true` with its
 * message; the Exec tool's result is its output as text (stderr under a `[stderr]` line) and a
 * summary line, the wire result as `structuredContent`, `isError` for a non-zero exit, timeout,
 * signal or resource limit; any other value its text (and `structuredContent` for a plain object),
 * an error when it does not match the tool's `outputSchema`.
 */
export function toCallToolResult(result: ToolResult, context: CallToolResultContext): CallToolResult {
  if (!result.ok) return errorResult(`${result.error.message} (${result.error.code})`);
  const { tool } = context;
  if (tool.outputSchema !== undefined) {
    const checked = tool.outputSchema.safeParse(result.value);
    if (!checked.success) {
      return errorResult(
        `Tool \`${tool.name}\` answered a result that does not match its outputSchema: ${describeIssue(firstIssue(checked.error, result.value), 'the result')}`,
      );
    }
  }
  if (tool.name === 'Exec' && isExecResult(result.value)) return execResult(result.value, context);
  const { value } = result;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return isPlainObject(value)
    ? { content: [{ type: 'text', text }], structuredContent: value }
    : { content: [{ type: 'text', text }] };
}

function execResult(value: ExecToolWireResult, context: CallToolResultContext): CallToolResult {
  const failed =
    value.exit_code !== 0 || value.timed_out || value.signal !== null || value.rlimit_hit !== undefined;
  let text = value.stdout;
  if (value.stderr !== '')
    text += `${text === '' || text.endsWith('\n') ? '' : '\n'}[stderr]\n${value.stderr}`;
  if (text !== '' && !text.endsWith('\n')) text += '\n';
  text += summary(value, context);
  return {
    content: [{ type: 'text', text }],
    structuredContent: value as unknown as Record<string, unknown>,
    ...(failed ? { isError: true } : {}),
  };
}

function summary(value: ExecToolWireResult, context: CallToolResultContext): string {
  const { streamedChunks } = context;
  const parsed = context.tool.schema.safeParse(context.args);
  const cap = parsed.success ? (parsed.data as { max_output_bytes?: unknown }).max_output_bytes : undefined;
  const parts = [
    value.timed_out
      ? 'timed out'
      : value.rlimit_hit !== undefined
        ? `killed by the ${value.rlimit_hit} limit (${value.signal ?? `exit ${value.exit_code}`})`
        : value.signal !== null
          ? `killed by ${value.signal}`
          : `exit ${value.exit_code}`,
    `${Math.round(value.duration_ms)} ms`,
  ];
  if (value.truncated) {
    parts.push(`output truncated: stdout and stderr are each capped at ${cap} bytes (max_output_bytes)`);
  }
  if (streamedChunks !== undefined) {
    parts.push(`${streamedChunks} line${streamedChunks === 1 ? '' : 's'} sent as progress notifications`);
  }
  return `${parts.join(' · ')}\n`;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isExecResult(value: unknown): value is ExecToolWireResult {
  return isPlainObject(value) && typeof value.stdout === 'string' && typeof value.truncated === 'boolean';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
