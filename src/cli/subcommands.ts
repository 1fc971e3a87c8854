import { followCommand } from './follow/follow-command.js';
import { mcpCommand } from './mcp/mcp-command.js';
import type { Subcommand } from './subcommand.js';
import { submitCommand } from './submit/submit-command.js';
import { webCommand } from './web/web-command.js';
import { workerCommand } from './worker/worker-command.js';

/** The subcommands `run-cli.ts` dispatches to by name, besides `exec`, `demo` and `help`. */
export const subcommands: ReadonlyMap<string, Subcommand> = new Map<string, Subcommand>([
  ['follow', followCommand],
  ['submit', submitCommand],
  ['worker', workerCommand],
  ['web', webCommand],
  ['mcp', mcpCommand],
]);
