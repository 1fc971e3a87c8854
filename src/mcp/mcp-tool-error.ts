import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isSluiceError, SluiceError } from '../core/errors/sluice-error.js';

const MCP_BRAND = Symbol.for('sluice.error.mcp');

/** The codes an {@link McpToolError} carries. */
export type McpToolErrorCode = 'MCP_TOOL_ERROR' | 'MCP_REQUEST_FAILED';

/** Details carried by an {@link McpToolError}. */
export interface McpToolErrorInfo {
  /** The tool that was called. */
  readonly name: string;
  /** `MCP_TOOL_ERROR` only: the whole result the server answered (`isError: true`). */
  readonly result?: CallToolResult;
  /** `MCP_REQUEST_FAILED` only: the JSON-RPC error code, when the server (or the SDK) gave one. */
  readonly mcpCode?: number;
  /** How many progress events were emitted before the failure. */
  readonly progressEvents: number;
}

/**
 * An MCP tool call followed with `fromMcpToolCall` failed: `MCP_TOOL_ERROR` when the tool
 * answered `isError: true` (its text in the message), `MCP_REQUEST_FAILED` when no result came
 * (a JSON-RPC error, a timeout, a closed connection; `cause` is the SDK's error).
 *
 * @example
 * ```ts
 * import { McpToolError } from 'sluice/mcp';
 * const error = new McpToolError('MCP_TOOL_ERROR', {
 *   name: 'Exec',
 *   result: { content: [{ type: 'text', text: 'exit 1' }], isError: true },
 *   progressEvents: 0,
 * });
 * error.message; // 'MCP tool `Exec` answered an error: exit 1'
 * ```
 */
export class McpToolError extends SluiceError<McpToolErrorInfo> {
  declare readonly code: McpToolErrorCode;
  declare readonly info: McpToolErrorInfo;

  constructor(code: McpToolErrorCode, info: McpToolErrorInfo, options: { cause?: unknown } = {}) {
    super(code, describe(code, info, options.cause), { info, cause: options.cause });
    Object.defineProperty(this, MCP_BRAND, { value: true, enumerable: false });
  }

  override get name(): string {
    return 'McpToolError';
  }
}

/**
 * Whether `value` is an {@link McpToolError} (optionally with the given code), in any realm and
 * from either build of the package.
 *
 * @example
 * ```ts
 * import { isMcpToolError } from 'sluice/mcp';
 * if (isMcpToolError(error, 'MCP_TOOL_ERROR')) console.log(error.info.result);
 * ```
 */
export function isMcpToolError(value: unknown, code?: McpToolErrorCode): value is McpToolError {
  if (!isSluiceError(value, code)) return false;
  return (value as unknown as Record<symbol, unknown>)[MCP_BRAND] === true;
}

function describe(code: McpToolErrorCode, info: McpToolErrorInfo, cause: unknown): string {
  if (code === 'MCP_REQUEST_FAILED') {
    return `MCP call of tool \`${info.name}\` failed: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
  const text = (info.result?.content ?? [])
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n')
    .trim();
  const short = text.length > 500 ? `${text.slice(0, 497)}...` : text;
  return `MCP tool \`${info.name}\` answered an error${short === '' ? '' : `: ${short}`}`;
}
