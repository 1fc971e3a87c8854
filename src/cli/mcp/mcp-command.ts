import type { Subcommand } from '../subcommand.js';
import { mcpHelpText } from './mcp-help.js';
import { MCP_FLAGS } from './parse-mcp-args.js';

/**
 * `sluice mcp`: serves the kernel's tools to an MCP host over stdio, or Streamable HTTP with `--http`
 * (see `run-mcp.ts`). The MCP
 * SDK is loaded only when this command runs, so `sluice exec` does not pay for it.
 */
export const mcpCommand: Subcommand = {
  summary:
    'sluice mcp [--http [--port <n>] …] [--allow <program>]… [--cwd <dir>] [--timeout-s <n>]\n' +
    '                            serve the Exec tool to an MCP host over stdio or HTTP (see sluice mcp --help)',
  help: mcpHelpText,
  flags: MCP_FLAGS,
  run: async (argv, io, env, signal) => {
    const { runMcp } = await import('./run-mcp.js');
    return runMcp(argv, io, env, signal);
  },
};
