import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createToolRegistry, registerBuiltinTools } from '../src/kernel/index.js';
import { serveMcp } from '../src/mcp/index.js';
// Zombie-aware, as in bench/cancel.ts.
import { processGroupAlive as groupRunning } from '../src/sources/exec/process-group.js';

/**
 * Like `measureCancel`, over MCP: the SDK's Client calls the Exec tool of `serveMcp` (in memory)
 * to run `script`, and once the first progress notification names the group's leader it aborts
 * the request (`AbortSignal` → `notifications/cancelled`); the time is from the abort until no
 * process of the group runs, polling every millisecond; `reps` times.
 *
 * @example
 * ```ts
 * const times = await measureMcpCancel('bench/fixtures/group-term.sh', 5);
 * ```
 */
export async function measureMcpCancel(script: string, reps: number): Promise<number[]> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await serveMcp(registerBuiltinTools(createToolRegistry()), serverTransport, { allow: ['sh'] });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientTransport);
  const times: number[] = [];
  try {
    for (let rep = 0; rep < reps; rep++) {
      const controller = new AbortController();
      const pgid = await new Promise<number>((resolve, reject) => {
        client
          .callTool({ name: 'Exec', arguments: { argv: ['sh', script] } }, undefined, {
            signal: controller.signal,
            onprogress: ({ message = '' }) => {
              const match = /pid (\d+)/.exec(message);
              if (match) resolve(Number(match[1]));
            },
          })
          .then(() => reject(new Error(`${script} ended before it was ready`)), reject);
      }).catch((error: unknown) => {
        if (controller.signal.aborted) return 0;
        throw error;
      });
      const started = performance.now();
      controller.abort('bench');
      const deadline = started + 10_000;
      while (groupRunning(pgid)) {
        if (performance.now() > deadline) throw new Error(`process group ${pgid} still running after cancel`);
        await sleep(1);
      }
      times.push(performance.now() - started);
    }
  } finally {
    await client.close();
  }
  return times;
}
