/**
 * One `serveMcpHttp` instance on Redis in a process of its own (so that a test can kill it mid-task):
 * `node --import tsx mcp-tasks-instance.ts <redis-url> <leaseMs>` prints its MCP URL on stdout.
 */
import { RedisRunStore } from '../../src/redis/index.js';
import { startInProcessMcpHttp } from './serve-mcp-http-in-process.js';

const [url, leaseMs] = process.argv.slice(2);
const store = new RedisRunStore({ url: url as string, leaseMs: Number(leaseMs) });
const server = await startInProcessMcpHttp({ allow: ['sh'], store });
process.stdout.write(`${server.url}\n`);
process.once('SIGTERM', () => {
  void server.close().then(() => store.close());
});
