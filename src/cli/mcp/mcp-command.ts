import type { Subcommand } from '../subcommand.js';
import { mcpHelpText } from './mcp-help.js';
import { MCP_FLAGS } from './parse-mcp-args.js';

/** `sluice mcp`: its help text says what it does. The MCP SDK loads only when it runs. */
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
