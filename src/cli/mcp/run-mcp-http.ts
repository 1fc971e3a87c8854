import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolRegistry } from '../../kernel/index.js';
import { serveMcpHttp } from '../../mcp/serve-mcp-http.js';
import type { RunStore } from '../../runs/run-store.js';
import { closeServer, hostsOf, listen } from '../../web/start-web-server.js';
import type { RedisConnectionFlag } from '../redis-store-flags.js';
import { untilAborted } from '../subcommand.js';
import type { CliStreams } from '../text-view.js';
import type { McpCommand, McpHttpFlags } from './parse-mcp-args.js';

/**
 * `sluice mcp --http` (docs/mcp.md, "Over HTTP: `sluice mcp --http`"): serves `registry` on
 * `/mcp` until `signal` aborts, then cancels the calls still running, ends this instance's sessions
 * and closes the store. `Host` may carry the names `hostsOf` gives. Resolves with the exit code.
 */
export async function runMcpHttp(
  registry: ToolRegistry,
  command: McpCommand,
  flags: McpHttpFlags,
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
): Promise<number> {
  const envToken = env.SLUICE_MCP_TOKEN;
  if (!flags.noToken && envToken !== undefined && envToken.length < 16) {
    io.stderr.write('sluice mcp: `SLUICE_MCP_TOKEN` must be at least 16 characters long\n');
    return 2;
  }
  const store = await openStore(flags.redis);
  const http = createServer();
  let address: AddressInfo;
  try {
    address = await listen(http, flags.port, flags.host);
  } catch (error) {
    io.stderr.write(`sluice mcp: cannot serve on ${flags.host}:${flags.port}: ${(error as Error).message}\n`);
    await store?.close();
    return 1;
  }
  const mcp = serveMcpHttp(registry, {
    allow: command.allow,
    cwd: command.cwd,
    timeoutS: command.timeoutS,
    allowEnv: command.allowEnv,
    port: address.port,
    hosts: hostsOf(address.address, flags.host, flags.allowHosts),
    token: flags.noToken ? null : (envToken ?? undefined),
    sessionIdleMs: Math.round(flags.sessionIdleS * 1000),
    ...(store === undefined ? {} : { store }),
  });
  http.on('request', mcp.handle);
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
  io.stderr.write(
    `sluice mcp: serving MCP (Streamable HTTP) at http://${shown}:${address.port}/mcp for ${
      command.allow.join(', ') || 'no program (Exec is off: start with --allow <program>)'
    } (cwd ${command.cwd}, timeout ${command.timeoutS} s, sessions idle out after ${flags.sessionIdleS} s, ${
      flags.redis === undefined ? 'memory store' : 'Redis store'
    })\n` +
      (mcp.token === undefined
        ? 'sluice mcp: no token required (--no-token, loopback only)\n'
        : `sluice mcp: token ${envToken === undefined ? mcp.token : '(SLUICE_MCP_TOKEN)'}: send \`Authorization: Bearer <token>\`\n`),
  );
  await untilAborted(signal);
  await closeServer(http);
  await mcp.close();
  await store?.close();
  return 0;
}

async function openStore(connection: RedisConnectionFlag | undefined): Promise<RunStore | undefined> {
  if (connection === undefined) return undefined;
  const { RedisRunStore } = await import('../../redis/redis-run-store.js');
  return new RedisRunStore({ ...connection });
}
