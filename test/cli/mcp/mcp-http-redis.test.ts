import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGroupOfSleeps } from '../../mcp/connect-in-memory.js';
import { groupGone, pollUntil, processesWithTag } from '../../support/processes.js';
import { redisForSuite, redisServerPath } from '../../support/redis-server.js';
import { type RoundRobinProxy, startRoundRobinProxy } from '../../support/round-robin-proxy.js';
import { needs } from '../../support/system-tools.js';
import {
  callWithTwoCuts,
  connectHttp,
  EXPECTED,
  type McpHttpProcess,
  startMcpHttp,
} from './mcp-http-server.js';

const TOKEN = 'sluice-mcp-test-token-0123456789';

/** The median of `values`. */
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

describe.skipIf(redisServerPath === undefined)(
  'two sluice mcp --http --redis instances behind a round-robin balancer',
  () => {
    const redis = redisForSuite();
    let balancer: RoundRobinProxy;
    const instances: McpHttpProcess[] = [];
    beforeAll(async () => {
      const targets: number[] = [];
      balancer = await startRoundRobinProxy(targets);
      for (let index = 0; index < 2; index += 1) {
        const args = ['--allow', 'sh', '--redis', redis.url, '--allow-host', `127.0.0.1:${balancer.port}`];
        instances.push(await startMcpHttp(args, { SLUICE_MCP_TOKEN: TOKEN }));
      }
      targets.push(...instances.map((instance) => instance.port));
    });
    afterAll(async () => {
      for (const instance of instances) expect(await instance.stop()).toBe(0);
      await balancer?.close();
    });

    it('resumes a call cut twice on the other instance: every one of 20 000 lines once, in order, and the result', async () => {
      const client = await connectHttp(balancer.url, TOKEN);
      const from = balancer.log.length;
      const { lines, dropped, result } = await callWithTwoCuts(client, balancer.cut);
      expect(dropped).toEqual([1, 1]);
      expect(lines).toEqual(EXPECTED);
      expect(result.structuredContent).toMatchObject({ exit_code: 0 });
      const log = balancer.log.slice(from);
      const call = log.find((entry) => entry.rpc === 'tools/call');
      const resumes = log.filter((entry) => entry.method === 'GET' && entry.lastEventId !== undefined);
      expect(resumes.length).toBeGreaterThanOrEqual(2);
      // The call ran on one instance; a reconnect landed on the other, which served it from Redis.
      expect(resumes.some((entry) => entry.target !== call?.target)).toBe(true);
      await client.close();
    });

    it.skipIf(!needs('linux'))(
      'kills the group when the cancel reaches the other instance: within 100 ms median, nothing left',
      async () => {
        const client = await connectHttp(balancer.url, TOKEN);
        const times: number[] = [];
        // Every cancel goes to the instance that did not get the call.
        balancer.pick = ({ rpc }) => {
          if (rpc !== 'notifications/cancelled') return undefined;
          const call = [...balancer.log].reverse().find((entry) => entry.rpc === 'tools/call');
          return instances.map((instance) => instance.port).find((port) => port !== call?.target);
        };
        for (let round = 0; round < 7; round += 1) {
          const tag = `sluice-http-redis-cancel-${process.pid}-${Date.now()}-${round}`;
          const controller = new AbortController();
          const from = balancer.log.length;
          const pgid = await startGroupOfSleeps(client, tag, controller.signal);
          expect(pgid).toBeGreaterThan(0);
          const started = performance.now();
          controller.abort('stop');
          expect(await groupGone(pgid, 5_000)).toBe(true);
          times.push(performance.now() - started);
          const log = balancer.log.slice(from);
          const target = log.find((entry) => entry.rpc === 'tools/call')?.target;
          const cancel = log.find((entry) => entry.rpc === 'notifications/cancelled')?.target;
          expect(cancel).toBeDefined();
          expect(cancel, JSON.stringify(log)).not.toBe(target);
          expect(await pollUntil(() => processesWithTag(tag).length === 0, 2_000)).toBe(true);
        }
        balancer.pick = undefined;
        expect(median(times), times.map((time) => time.toFixed(1)).join(', ')).toBeLessThan(100);
        await client.close();
      },
    );
  },
);
