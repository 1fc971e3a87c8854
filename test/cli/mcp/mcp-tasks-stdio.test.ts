import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, CreateTaskResultSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_OF_SLEEPS } from '../../mcp/connect-in-memory.js';
import { pollUntil, processAlive, processesWithTag } from '../../support/processes.js';
import { CLI } from '../../support/sluice-cli.js';
import { needs } from '../../support/system-tools.js';

/** `sluice mcp --allow sh` as a host runs it (stdio), with the SDK's own Client. */
async function startSluiceMcp(): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--allow', 'sh'],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid ?? 0 };
}

/** Starts `argv` as a task with a task-augmented tools/call; resolves the task. */
async function startTask(client: Client, argv: string[]): Promise<Task> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'Exec', arguments: { argv }, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  return created.task;
}

const tagged = (what: string) => `sluice-stdio-task-${what}-${process.pid}-${Date.now()}`;

describe('sluice mcp over stdio: Exec as an MCP task (the SDK Client against the real process)', () => {
  let client: Client;
  beforeAll(async () => {
    ({ client } = await startSluiceMcp());
  });
  afterAll(async () => {
    await client?.close();
  });

  it('declares tasks and lists Exec with optional task support', async () => {
    expect(client.getServerCapabilities()?.tasks).toMatchObject({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(tools[0]).toMatchObject({ name: 'Exec', execution: { taskSupport: 'optional' } });
  });

  it('creates a task, polls tasks/get while it runs, then fetches tasks/result', async () => {
    const go = join(mkdtempSync(join(tmpdir(), 'sluice-stdio-task-')), 'go');
    const task = await startTask(client, [
      'sh',
      '-c',
      'while [ ! -e "$1" ]; do sleep 0.02; done; echo finished',
      'sh',
      go,
    ]);
    expect(task).toMatchObject({ status: 'working', ttl: 3_600_000, pollInterval: 500 });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'working' });
    writeFileSync(go, '');
    let status = 'working';
    const deadline = performance.now() + 20_000;
    while (status === 'working' && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, task.pollInterval ?? 500));
      status = (await client.experimental.tasks.getTask(task.taskId)).status;
    }
    expect(status).toBe('completed');
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ exit_code: 0, stdout: 'finished\n' });
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((listed) => [listed.taskId, listed.status])).toContainEqual([task.taskId, 'completed']);
  });

  it('a failing command through the SDK’s task stream: created, then failed, its result kept', async () => {
    const messages = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'Exec', arguments: { argv: ['sh', '-c', 'echo out; exit 4'] } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    )) {
      messages.push(message);
    }
    expect(messages[0]?.type).toBe('taskCreated');
    // The SDK's stream ends a failed task with an error; its result is kept for tasks/result.
    const last = messages.at(-1);
    expect(last?.type === 'error' && last.error.message).toMatch(/failed/);
    const taskId = messages[0]?.type === 'taskCreated' ? messages[0].task.taskId : '';
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'failed' });
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result).toMatchObject({ isError: true, structuredContent: { exit_code: 4, stdout: 'out\n' } });
  });

  it.skipIf(!needs('linux'))(
    'tasks/cancel kills the task’s process group; the task says cancelled',
    async () => {
      const tag = tagged('cancel');
      const task = await startTask(client, ['sh', '-c', GROUP_OF_SLEEPS, tag]);
      expect(await pollUntil(() => processesWithTag(tag).length >= 3, 20_000)).toBe(true);
      expect(await client.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ status: 'cancelled' });
      expect(await pollUntil(() => processesWithTag(tag).length === 0, 2_000)).toBe(true);
      expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'cancelled' });
      const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      expect(result.isError).toBe(true);
    },
  );

  it.skipIf(!needs('linux'))('closing the connection kills the group of a task still running', async () => {
    const other = await startSluiceMcp();
    const tag = tagged('close');
    await startTask(other.client, ['sh', '-c', GROUP_OF_SLEEPS, tag]);
    expect(await pollUntil(() => processesWithTag(tag).length >= 3, 20_000)).toBe(true);
    // Closing ends the server's stdin: the task's group is killed at once, well before the SDK's
    // own 2 s grace (after which it would SIGTERM the server).
    const closing = other.client.close();
    expect(await pollUntil(() => processesWithTag(tag).length === 0, 1_000)).toBe(true);
    await closing;
    expect(await pollUntil(() => !processAlive(other.pid), 5_000)).toBe(true);
  });
});
