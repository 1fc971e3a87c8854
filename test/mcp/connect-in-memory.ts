import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolRegistry } from '../../src/kernel/index.js';
import { type ServeMcpOptions, serveMcp } from '../../src/mcp/index.js';

/** A sluice MCP server and the SDK's own Client, linked by the SDK's InMemoryTransport. */
export async function connectInMemory(registry: ToolRegistry, options: ServeMcpOptions = {}) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const server = await serveMcp(registry, serverTransport, options);
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return { client, server, close: () => client.close() };
}

/** A Python script that prints a line, one on stderr, then waits for `argv[1]` to exist before its last line. */
export const WAIT_FOR_FILE =
  'import os, sys, time\n' +
  'print("first", flush=True)\n' +
  'sys.stderr.write("warming up\\n"); sys.stderr.flush()\n' +
  'while not os.path.exists(sys.argv[1]): time.sleep(0.01)\n' +
  'print("second", flush=True)\n';

/** Shell that prints its pid (the group id) then waits on two sleeps of the group, all tagged with `$0`. */
export const GROUP_OF_SLEEPS = 'echo $$; (sleep 1000; :) & (sleep 1000; :) & wait';

/**
 * Calls the Exec tool with {@link GROUP_OF_SLEEPS} tagged `tag`, cancellable through `signal`,
 * and resolves with the group's id once the first progress names it (0 if none came in 20 s).
 */
export async function startGroupOfSleeps(client: Client, tag: string, signal: AbortSignal): Promise<number> {
  let pgid = 0;
  const call = client.callTool(
    { name: 'Exec', arguments: { argv: ['sh', '-c', GROUP_OF_SLEEPS, tag] } },
    undefined,
    {
      signal,
      onprogress: (update) => {
        pgid ||= Number.parseInt(update.message ?? '', 10);
      },
    },
  );
  call.catch(() => {});
  const deadline = performance.now() + 20_000;
  while (pgid === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return pgid;
}
