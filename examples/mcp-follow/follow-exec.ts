import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { lastValueFrom, tap } from 'rxjs';
import { fromMcpToolCall, isMcpToolError } from '../../src/mcp/index.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/**
 * Starts `sluice mcp --allow <argv[0]>` the way an MCP host does (the SDK's stdio client), runs
 * `argv` with the Exec tool, and writes each progress notification as it arrives — the time since
 * the call, the `progress` count, the lines — then the result's last line. Resolves with the
 * command's exit code (1 when the call failed without one).
 */
export async function followExec(argv: readonly string[], write: (text: string) => void): Promise<number> {
  const [program = ''] = argv;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', main, 'mcp', '--allow', program],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mcp-follow', version: '1.0.0' });
  await client.connect(transport);
  const start = performance.now();
  const stamp = () => `+${String(Math.round(performance.now() - start)).padStart(6)} ms`;
  try {
    const last = await lastValueFrom(
      fromMcpToolCall(client, { name: 'Exec', arguments: { argv: [...argv] } }, { timeoutMs: 600_000 }).pipe(
        tap((event) => {
          if (event.kind !== 'progress') return;
          const { progress, message = '' } = event.content as { progress: number; message?: string };
          const lines = message.replace(/\n$/, '').split('\n');
          write(`${stamp()}  progress ${String(progress).padEnd(5)} ${lines.join(`\n${' '.repeat(26)}`)}\n`);
        }),
      ),
    );
    const result = last.content as CallToolResult;
    write(`${stamp()}  result         ${summaryOf(result)}\n`);
    return 0;
  } catch (error) {
    if (!isMcpToolError(error, 'MCP_TOOL_ERROR')) throw error;
    const result = error.info.result as CallToolResult;
    write(`${stamp()}  error result   ${summaryOf(result)}\n`);
    return (result.structuredContent as { exit_code?: number } | undefined)?.exit_code ?? 1;
  } finally {
    await client.close();
  }
}

function summaryOf(result: CallToolResult): string {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return text.trimEnd().split('\n').at(-1) ?? '';
}
