import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolRequest, CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { Observable } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';
import { optionError } from '../core/option-error.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { McpToolError } from './mcp-tool-error.js';
import { startMcpClientSpan } from './start-mcp-client-span.js';

/** One event of {@link fromMcpToolCall}: `progress` events, then one final `result`. */
export type McpToolCallEvent = ChunkEvent<Progress> | ChunkEvent<CallToolResult>;

/** Options of {@link fromMcpToolCall}, checked when it is called. */
export interface FromMcpToolCallOptions {
  /** Fail with `MCP_REQUEST_FAILED` after this many ms without a result (positive integer). Default `60000`, the SDK's. */
  readonly timeoutMs?: number;
  /** Whether each progress notification restarts `timeoutMs`. Default `true`: a call that streams is alive. */
  readonly resetTimeoutOnProgress?: boolean;
  /** Fail after this many ms in all, progress or not (positive integer). Default: no limit. */
  readonly maxTotalTimeoutMs?: number;
}

/** The one method of the SDK's `Client` this needs (so any copy of the SDK fits). */
type ToolCaller = Pick<Client, 'callTool'>;

/**
 * Follows an MCP tool call, on any server and transport, as sequenced chunk events: one
 * `progress` event per `notifications/progress`, the result as the final `result` event. A result
 * with `isError: true` errors with an {@link McpToolError} `MCP_TOOL_ERROR`; no result (unknown
 * tool, timeout, closed connection) with `MCP_REQUEST_FAILED`.
 *
 * Unsubscribing before the result aborts the request (the SDK sends `notifications/cancelled`: a
 * sluice server kills the command's process group). Each subscription is its own call; with
 * `@opentelemetry/api` it is a client span whose context goes in `params._meta` (docs/mcp.md,
 * "Tracing"). Notifications are pushed, with no demand to send back: put `bounded` or `coalesce`
 * after this for a slow consumer.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { fromMcpToolCall } from 'sluice/mcp';
 * fromMcpToolCall(client, { name: 'Exec', arguments: { argv: ['npm', 'test'] } }).subscribe((event) => {
 *   if (event.kind === 'progress') process.stdout.write(event.content?.message ?? '');
 * });
 * ```
 */
export function fromMcpToolCall(
  client: ToolCaller,
  params: CallToolRequest['params'],
  options: FromMcpToolCallOptions = {},
): Observable<McpToolCallEvent> {
  if (typeof client?.callTool !== 'function')
    throw optionError('client', 'an MCP Client', client, 'argument');
  if (
    typeof params !== 'object' ||
    params === null ||
    typeof params.name !== 'string' ||
    params.name === ''
  ) {
    throw optionError('params', 'an object with a non-empty `name`', params, 'argument');
  }
  const { timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs } = readCallOptions(options);
  const { name } = params;

  return new Observable<McpToolCallEvent>((subscriber) => {
    const controller = new AbortController();
    const { span, params: sent } = startMcpClientSpan(params);
    let sequence = 0;
    let settled = false;
    client
      .callTool(sent, undefined, {
        signal: controller.signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress,
        ...(maxTotalTimeoutMs === undefined ? {} : { maxTotalTimeout: maxTotalTimeoutMs }),
        onprogress: (progress) => {
          if (settled) return;
          subscriber.next({ sequence, kind: 'progress', content: progress, isFinal: false });
          sequence += 1;
        },
      })
      .then(
        (result) => {
          if (settled) return;
          settled = true;
          const answer = result as CallToolResult;
          if (answer.isError === true) {
            span.end('error', { errorType: 'tool_error', lines: sequence });
            subscriber.error(
              new McpToolError('MCP_TOOL_ERROR', { name, result: answer, progressEvents: sequence }),
            );
            return;
          }
          span.end('complete', { lines: sequence });
          subscriber.next({ sequence, kind: 'result', content: answer, isFinal: true });
          subscriber.complete();
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          const mcpCode = (error as { code?: unknown } | null)?.code;
          const failure = new McpToolError(
            'MCP_REQUEST_FAILED',
            { name, progressEvents: sequence, ...(typeof mcpCode === 'number' ? { mcpCode } : {}) },
            { cause: error },
          );
          span.end('error', {
            errorType: String(mcpCode ?? failure.code),
            message: failure.message,
            lines: sequence,
          });
          subscriber.error(failure);
        },
      );
    return () => {
      if (settled) return;
      settled = true;
      span.end('cancel', { lines: sequence });
      controller.abort('The subscriber unsubscribed');
    };
  });
}

/** The options of {@link fromMcpToolCall}, checked and defaulted. */
function readCallOptions(options: FromMcpToolCallOptions) {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['timeoutMs', 'resetTimeoutOnProgress', 'maxTotalTimeoutMs']);
  const { timeoutMs = 60_000, resetTimeoutOnProgress = true, maxTotalTimeoutMs } = options;
  if (!isDelay(timeoutMs)) throw optionError('timeoutMs', `an integer from 1 to ${MAX_DELAY_MS}`, timeoutMs);
  if (typeof resetTimeoutOnProgress !== 'boolean') {
    throw optionError('resetTimeoutOnProgress', 'a boolean', resetTimeoutOnProgress);
  }
  if (maxTotalTimeoutMs !== undefined && !isDelay(maxTotalTimeoutMs)) {
    throw optionError('maxTotalTimeoutMs', `an integer from 1 to ${MAX_DELAY_MS}`, maxTotalTimeoutMs);
  }
  return { timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs };
}

function isDelay(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_DELAY_MS;
}
