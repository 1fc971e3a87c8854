import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { VirtualTimeScheduler } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpSessions } from '../../src/mcp/mcp-sessions.js';
import { McpTasks } from '../../src/mcp/mcp-tasks.js';
import { RedisRunStore } from '../../src/redis/index.js';
import { MemoryRunStore } from '../../src/runs/index.js';
import type { RunStore } from '../../src/runs/run-store.js';
import { macrotask } from '../support/macrotask.js';
import { pollUntil, processesWithTag } from '../support/processes.js';
import { type RedisServer, redisServerPath, startRedis } from '../support/redis-server.js';
import { needs } from '../support/system-tools.js';
import { GROUP_OF_SLEEPS } from './connect-in-memory.js';
import {
  connectMcpClient,
  type InProcessMcpHttp,
  mcpHttpForSuite,
  startInProcessMcpHttp,
} from './serve-mcp-http-in-process.js';

/** Starts `argv` as a task with a task-augmented tools/call; resolves the task's id. */
async function startTask(client: Client, argv: string[]): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'Exec', arguments: { argv }, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  // The ttl is the store's retention (one hour by default), not the one asked for.
  expect(created.task).toMatchObject({ status: 'working', ttl: 3_600_000 });
  return created.task.taskId;
}

/** The behaviour every store must give. */
function taskBehaviour(servers: () => { call: InProcessMcpHttp; other: InProcessMcpHttp }) {
  it('runs a tools/call as a task: its status, then its result through the SDK’s task stream', async () => {
    const { client } = await connectMcpClient(servers().call.url);
    const messages = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'Exec', arguments: { argv: ['sh', '-c', 'echo one; sleep 0.2; echo two'] } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    )) {
      messages.push(message);
    }
    expect(messages[0]?.type).toBe('taskCreated');
    const last = messages.at(-1);
    expect(last?.type).toBe('result');
    expect(last?.type === 'result' && last.result.structuredContent).toMatchObject({
      exit_code: 0,
      stdout: 'one\ntwo\n',
    });
    const taskId = messages[0]?.type === 'taskCreated' ? messages[0].task.taskId : '';
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed' });
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((task) => [task.taskId, task.status])).toContainEqual([taskId, 'completed']);
    await client.close();
  });

  it('outlives its client: a new connection to the session (on the other instance) gets the result', async () => {
    const first = await connectMcpClient(servers().call.url);
    const taskId = await startTask(first.client, ['sh', '-c', 'sleep 0.3; echo late']);
    await first.client.close(); // the connection ends; the session stays
    const second = await connectMcpClient(servers().other.url, first);
    const result = await second.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ exit_code: 0, stdout: 'late\n' });
    expect(await second.client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'completed' });
    // A task of another session is not found.
    const stranger = await connectMcpClient(servers().other.url);
    await expect(stranger.client.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
    await second.client.close();
    await stranger.client.close();
  });

  it.skipIf(!needs('linux'))(
    'tasks/cancel (on the other instance) kills the task’s process group; the task says cancelled',
    async () => {
      const first = await connectMcpClient(servers().call.url);
      const tag = `sluice-task-cancel-${process.pid}-${Date.now()}`;
      const taskId = await startTask(first.client, ['sh', '-c', GROUP_OF_SLEEPS, tag]);
      expect(await pollUntil(() => processesWithTag(tag).length >= 3, 20_000)).toBe(true);
      await first.client.close();
      const second = await connectMcpClient(servers().other.url, first);
      const cancelled = await second.client.experimental.tasks.cancelTask(taskId);
      expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
      expect(await pollUntil(() => processesWithTag(tag).length === 0, 2_000)).toBe(true);
      const result = await second.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(result.isError).toBe(true);
      await second.client.close();
    },
  );
}

describe('serveMcpHttp: MCP Tasks in the memory store (one instance)', () => {
  const server = mcpHttpForSuite({ allow: ['sh'], store: new MemoryRunStore() });
  taskBehaviour(() => ({ call: server, other: server }));

  it('tasks/list pages: 50 tasks, oldest first, then the rest after nextCursor; a cursor that names no task is refused', async () => {
    const { client } = await connectMcpClient(server.url);
    const started: string[] = [];
    for (let index = 0; index < 53; index += 1) started.push(await startTask(client, ['sh', '-c', ':']));
    const first = await client.experimental.tasks.listTasks();
    expect(first.tasks).toHaveLength(50);
    expect(first.nextCursor).toBe(started[49]);
    const second = await client.experimental.tasks.listTasks(first.nextCursor);
    expect(second.nextCursor).toBeUndefined();
    expect([...first.tasks, ...second.tasks].map((task) => task.taskId)).toEqual(started);
    await expect(client.experimental.tasks.listTasks('nope')).rejects.toThrow(/Invalid cursor: nope/);
    await client.close();
  });
});

describe('serveMcpHttp: MCP Tasks in a store that cannot list its runs', () => {
  let server: InProcessMcpHttp;
  const memory = new MemoryRunStore();
  beforeAll(async () => {
    // The memory store's methods, without runIds.
    const store: RunStore = {
      openWriter: (runId, options) => memory.openWriter(runId, options),
      read: (runId, options) => memory.read(runId, options),
      cancel: (runId, reason, details) => memory.cancel(runId, reason, details),
      info: (runId) => memory.info(runId),
      lastRecord: (runId) => memory.lastRecord(runId),
      close: () => memory.close(),
    };
    server = await startInProcessMcpHttp({ allow: ['sh'], store });
  });
  afterAll(async () => {
    await server?.close();
    await memory.close();
  });

  it('declares tasks without list, and still runs a task', async () => {
    const { client } = await connectMcpClient(server.url);
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    const created = await client.request(
      { method: 'tools/call', params: { name: 'Exec', arguments: { argv: ['sh', '-c', ':'] }, task: {} } },
      CreateTaskResultSchema,
    );
    expect(created.task.ttl).toBeNull(); // the store says no retention
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ exit_code: 0 });
    await client.close();
  });
});

describe('McpTasks: tasks/cancel waits for the end on the given scheduler', () => {
  it('answers after 10 s of virtual time when the task’s owner never ends it', async () => {
    const scheduler = new VirtualTimeScheduler();
    const store = new MemoryRunStore({ scheduler });
    const sessions = new McpSessions(store, { idleMs: 60_000, scheduler });
    const tasks = new McpTasks(store, sessions, scheduler);
    const taskId = `${Date.now().toString(36).padStart(9, '0')}-${randomUUID()}`;
    // A task run whose owner hears no cancel (it went away without ending it).
    const writer = store.openWriter(`mcp-task:s1:${taskId}`);
    writer.append({ sequence: 0, kind: 'task', content: {}, isFinal: false });
    let answered = false;
    const cancel = tasks
      .forSession('s1')
      .updateTaskStatus(taskId, 'cancelled')
      .then(() => {
        answered = true;
      });
    await macrotask();
    expect(answered).toBe(false);
    scheduler.flush(); // 10 s pass
    await macrotask();
    expect(answered).toBe(true);
    await cancel;
    writer.fail(new Error('test over'));
    sessions.close();
  });
});

describe.skipIf(redisServerPath === undefined)(
  'serveMcpHttp: MCP Tasks in Redis (two instances, each request on either)',
  () => {
    let redis: RedisServer;
    const servers: InProcessMcpHttp[] = [];
    beforeAll(async () => {
      redis = await startRedis();
      for (let index = 0; index < 2; index += 1) {
        const store = new RedisRunStore({ url: redis.url });
        servers.push(await startInProcessMcpHttp({ allow: ['sh'], store }));
      }
    });
    afterAll(async () => {
      for (const server of servers) {
        await server.close();
        await server.mcp.store.close();
      }
      await redis?.stop();
    });
    taskBehaviour(() => ({ call: servers[0] as InProcessMcpHttp, other: servers[1] as InProcessMcpHttp }));

    it('a task whose run has no event yet (its instance between taking the run and its first write) is working', async () => {
      const { client, sessionId } = await connectMcpClient((servers[1] as InProcessMcpHttp).url);
      const taskId = `${Date.now().toString(36).padStart(9, '0')}-${randomUUID()}`;
      const elsewhere = new RedisRunStore({ url: redis.url });
      const writer = elsewhere.openWriter(`mcp-task:${sessionId}:${taskId}`);
      await expect.poll(() => elsewhere.info(`mcp-task:${sessionId}:${taskId}`)).toBeDefined();
      expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'working' });
      writer.fail(new Error('test over'));
      await writer.ended;
      expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({
        status: 'failed',
        statusMessage: 'test over',
      });
      await elsewhere.close();
      await client.close();
    });
  },
);
