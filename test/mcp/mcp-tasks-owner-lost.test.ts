import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/index.js';
import { pollUntil, processesWithTag } from '../support/processes.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { needs } from '../support/system-tools.js';
import { GROUP_OF_SLEEPS } from './connect-in-memory.js';
import {
  connectMcpClient,
  type InProcessMcpHttp,
  startInProcessMcpHttp,
} from './serve-mcp-http-in-process.js';

const instanceScript = fileURLToPath(new URL('./mcp-tasks-instance.ts', import.meta.url));
/** The lease of the instance that dies: its tasks are judged lost this long after its death. */
const LEASE_MS = 2_000;
/** The instance that goes on. */
let survivor: InProcessMcpHttp;

/** Starts the group of sleeps tagged `tag` as a task; resolves its id once the group runs. */
async function startSleeps(client: Client, tag: string): Promise<string> {
  const created = await client.request(
    {
      method: 'tools/call',
      params: { name: 'Exec', arguments: { argv: ['sh', '-c', GROUP_OF_SLEEPS, tag] }, task: {} },
    },
    CreateTaskResultSchema,
  );
  expect(await pollUntil(() => processesWithTag(tag).length >= 3, 20_000)).toBe(true);
  return created.task.taskId;
}

/**
 * A session that lives on the surviving instance (a session ends with the instance that opened
 * it), on a client rejoined to `url`, where its task will run.
 */
async function startOn(url: string) {
  const home = await connectMcpClient(survivor.url);
  await home.client.close();
  return connectMcpClient(url, home);
}

/** Starts an instance in a process of its own; resolves its URL and a way to kill it. */
async function startInstance(redisUrl: string) {
  const child = execa(process.execPath, ['--import', 'tsx', instanceScript, redisUrl, String(LEASE_MS)], {
    reject: false,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString('utf8');
      const line = /^(http\S+)\n/m.exec(out)?.[1];
      if (line !== undefined) resolve(line);
    });
    void child.then((result) =>
      reject(new Error(`the instance exited ${result.exitCode}: ${result.stderr}`)),
    );
  });
  return { url, child };
}

describe.skipIf(redisServerPath === undefined || !needs('linux'))(
  'MCP Tasks on Redis: the instance running a task dies, or loses its lease',
  () => {
    const redis = redisForSuite();
    const tags: string[] = [];
    beforeAll(async () => {
      survivor = await startInProcessMcpHttp({ allow: ['sh'], store: new RedisRunStore({ url: redis.url }) });
    });
    afterEach(() => {
      // The killed instance could not kill its tool's group: the test does (the tagged `sh` leads it).
      for (const pid of tags.splice(0).flatMap(processesWithTag)) {
        for (const target of [-pid, pid]) {
          try {
            process.kill(target, 'SIGKILL');
          } catch {}
        }
      }
    });
    /**
     * Starts a task on an instance of its own, kills that instance (`kill -9`: its task's group
     * lives on, tagged `tag`), and rejoins the task's session on the survivor.
     */
    const orphanTask = async (tag: string) => {
      const owner = await startInstance(redis.url);
      const first = await startOn(owner.url);
      tags.push(tag);
      const taskId = await startSleeps(first.client, tag);
      owner.child.kill('SIGKILL');
      await owner.child;
      await first.client.close(); // its connection went with the instance; the session stays
      return { taskId, second: await connectMcpClient(survivor.url, first) };
    };
    afterAll(async () => {
      await survivor?.close();
      await survivor?.mcp.store.close();
    });

    it('tasks/get on the other instance says failed once the dead instance’s lease has expired', async () => {
      const { taskId, second } = await orphanTask(`sluice-task-owner-dies-${process.pid}-${Date.now()}`);
      expect(await second.client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'working' });
      await expect
        .poll(() => second.client.experimental.tasks.getTask(taskId), {
          timeout: LEASE_MS + 10_000,
          interval: 200,
        })
        .toMatchObject({ taskId, status: 'failed', statusMessage: expect.stringMatching(/lease expired/) });
      const result = await second.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(result.isError).toBe(true);
      await second.client.close();
    });

    it('tasks/cancel on the other instance answers cancelled, and the task stays cancelled', async () => {
      const { taskId, second } = await orphanTask(
        `sluice-task-owner-dies-cancel-${process.pid}-${Date.now()}`,
      );
      const cancelled = await second.client.experimental.tasks.cancelTask(taskId);
      expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
      expect(await second.client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'cancelled' });
      await second.client.close();
    });

    it('an instance whose run lost its lease (a partition) aborts the tool: its group is killed, the task failed', async () => {
      const store = new RedisRunStore({ url: redis.url, leaseMs: 3_000 });
      const owner = await startInProcessMcpHttp({ allow: ['sh'], store });
      const { client, sessionId } = await connectMcpClient(owner.url);
      const tag = `sluice-task-lease-lost-${process.pid}-${Date.now()}`;
      tags.push(tag);
      const taskId = await startSleeps(client, tag);
      // What a partition looks like from Redis: the lease is gone, and a reader gives the verdict.
      const runId = `mcp-task:${sessionId}:${taskId}`;
      const judge = new RedisRunStore({ url: redis.url });
      await judge.client.del(`sluice:{${runId}}:lease`);
      expect(await judge.lastRecord(runId)).toMatchObject({
        type: 'failure',
        failure: { code: 'OWNER_LOST' },
      });
      // The owner learns it at its next heartbeat (leaseMs / 3) and kills the tool's group.
      expect(await pollUntil(() => processesWithTag(tag).length === 0, 10_000)).toBe(true);
      expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'failed' });
      await client.close();
      await owner.close();
      await judge.close();
      await store.close();
    });
  },
);
