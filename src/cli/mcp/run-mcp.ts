import { importPeer } from '../../core/load-peer.js';
import { createToolRegistry, registerBuiltinTools } from '../../kernel/index.js';
import { serveMcp } from '../../mcp/serve-mcp.js';
import type { CliStreams } from '../text-view.js';
import { mcpHelpText } from './mcp-help.js';
import { parseMcpArgs } from './parse-mcp-args.js';

/**
 * Runs `sluice mcp`: serves the kernel's built-in tools with {@link serveMcp} over stdio (JSON-RPC
 * on stdin/stdout, a log line on stderr) — or over HTTP with `--http` (`run-mcp-http.ts`) — until the client closes stdin, the connection closes,
 * or `signal` aborts (Ctrl-C, SIGTERM). Closing aborts every call still running, which kills its
 * process group. Resolves with exit code 0.
 */
export async function runMcp(
  argv: readonly string[],
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<number> {
  const command = parseMcpArgs(argv);
  if (command.help) {
    io.stdout.write(mcpHelpText);
    return 0;
  }
  const registry = registerBuiltinTools(createToolRegistry());
  if (command.http !== undefined) {
    const { runMcpHttp } = await import('./run-mcp-http.js');
    return runMcpHttp(registry, command, command.http, io, env, signal);
  }
  const { StdioServerTransport } = await importPeer(
    '@modelcontextprotocol/sdk',
    'sluice mcp',
    () => import('@modelcontextprotocol/sdk/server/stdio.js'),
  );
  const transport = new StdioServerTransport(process.stdin, io.stdout);
  const server = await serveMcp(registry, transport, {
    allow: command.allow,
    cwd: command.cwd,
    timeoutS: command.timeoutS,
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const close = () => void server.close().catch(() => {});
  process.stdin.once('end', close);
  process.stdin.once('close', close);
  if (signal?.aborted) close();
  signal?.addEventListener('abort', close, { once: true });
  io.stderr.write(
    command.allow.length === 0
      ? 'sluice mcp: no program is allowed, so the Exec tool is off (start with --allow <program>)\n'
      : `sluice mcp: serving Exec over stdio for ${command.allow.join(', ')} (cwd ${command.cwd}, timeout ${command.timeoutS} s)\n`,
  );
  await closed;
  process.stdin.off('end', close);
  process.stdin.off('close', close);
  signal?.removeEventListener('abort', close);
  return 0;
}
