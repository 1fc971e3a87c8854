import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_OF_SLEEPS } from '../../mcp/connect-in-memory.js';
import { pollUntil, processesWithTag } from '../../support/processes.js';
import { startCli } from '../../support/sluice-cli.js';
import { needs } from '../../support/system-tools.js';
import { connectHttp, type McpHttpProcess, startMcpHttp } from './mcp-http-server.js';

describe('sluice mcp --http --session-idle-s', () => {
  // Each bad value (too small, negative, not a number, …) is in test/cli/mcp/parse-mcp-args.test.ts.
  it('refuses a value under 1 s, naming the flag (exit 2, nothing served)', async () => {
    const result = await startCli(['mcp', '--http', '--session-idle-s', '0.2']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'Expected the `--session-idle-s` flag to be a number of seconds from 1 to 2147483, got `0.2` (string)',
    );
    expect(result.stderr).not.toContain('serving MCP');
  });

  describe.skipIf(!needs('linux'))('with 1 s', () => {
    let server: McpHttpProcess;
    beforeAll(async () => {
      server = await startMcpHttp(['--no-token', '--session-idle-s', '1', '--allow', 'sh']);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('ends a session left idle: its running task’s group is killed, the session is gone', async () => {
      const client = await connectHttp(server.url, undefined);
      const tag = `sluice-idle-s-${process.pid}-${Date.now()}`;
      // A task answers at once: from then on the session has no request and no open stream, so
      // its idle time starts after this moment.
      const before = performance.now();
      const created = await client.request(
        {
          method: 'tools/call',
          params: { name: 'Exec', arguments: { argv: ['sh', '-c', GROUP_OF_SLEEPS, tag] }, task: {} },
        },
        CreateTaskResultSchema,
      );
      expect(await pollUntil(() => processesWithTag(tag).length >= 3, 20_000)).toBe(true);
      expect(await pollUntil(() => processesWithTag(tag).length === 0, 30_000)).toBe(true);
      // Not before the idle time: the end is the session's, not the task's.
      expect(performance.now() - before).toBeGreaterThanOrEqual(950);
      await expect(client.experimental.tasks.getTask(created.task.taskId)).rejects.toThrow(
        /Session not found|404/,
      );
      await client.close();
    }, 60_000);
  });
});
