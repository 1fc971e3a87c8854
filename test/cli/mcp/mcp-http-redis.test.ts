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
      'kills the group when the cancel reaches the other instance: about as soon as when it reaches the one running it, nothing left',
      async () => {
        const client = await connectHttp(balancer.url, TOKEN);
        const times = { local: [] as number[], relayed: [] as number[] };
        // Rounds alternate: the cancel goes to the instance that got the call (the baseline, measured
        // under the same load), then to the other one, which relays it through Redis.
        for (let round = 0; round < 10; round += 1) {
          const way = round % 2 === 0 ? 'local' : 'relayed';
          balancer.pick = ({ rpc }) => {
            if (rpc !== 'notifications/cancelled') return undefined;
            const call = [...balancer.log].reverse().find((entry) => entry.rpc === 'tools/call');
            return instances
              .map((instance) => instance.port)
              .find((port) => (way === 'local') === (port === call?.target));
          };
          const tag = `sluice-http-redis-cancel-${process.pid}-${Date.now()}-${round}`;
          const controller = new AbortController();
          const from = balancer.log.length;
          const pgid = await startGroupOfSleeps(client, tag, controller.signal);
          expect(pgid).toBeGreaterThan(0);
          const started = performance.now();
          controller.abort('stop');
          expect(await groupGone(pgid, 10_000)).toBe(true);
          times[way].push(performance.now() - started);
          const log = balancer.log.slice(from);
          const target = log.find((entry) => entry.rpc === 'tools/call')?.target;
          const cancel = log.find((entry) => entry.rpc === 'notifications/cancelled')?.target;
          expect(cancel).toBeDefined();
          expect(cancel === target, JSON.stringify(log)).toBe(way === 'local');
          expect(await pollUntil(() => processesWithTag(tag).length === 0, 10_000)).toBe(true);
        }
        balancer.pick = undefined;
        // The relay is one Redis publish away: a relay that polled, or waited for the kill's
        // escalation, would take several times the baseline. The slack covers a baseline of a few ms.
        const shown = JSON.stringify(times, (_, value) =>
          typeof value === 'number' ? Math.round(value) : value,
        );
        expect(median(times.relayed), shown).toBeLessThan(3 * median(times.local) + 100);
        await client.close();
      },
    );
  },
);
