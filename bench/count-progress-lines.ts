import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * Calls the Exec tool through `client` to run `command args` and resolves with the number of
 * lines its progress notifications carried (the MCP throughput variants).
 *
 * @example
 * ```ts
 * const lines = await countProgressLines(client, 'cat', ['lines.txt']);
 * ```
 */
export async function countProgressLines(
  client: Client,
  command: string,
  args: readonly string[],
): Promise<number> {
  let lines = 0;
  await client.callTool(
    { name: 'Exec', arguments: { argv: [command, ...args], timeout_s: 600 } },
    undefined,
    {
      timeout: 600_000,
      onprogress: ({ message = '' }) => {
        for (let index = message.indexOf('\n'); index !== -1; index = message.indexOf('\n', index + 1))
          lines += 1;
      },
    },
  );
  return lines;
}
