import { randomUUID } from 'node:crypto';
import type {
  CreateTaskOptions,
  TaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { CallToolResult, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import { filter, firstValueFrom, map, take, timeout } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import type { RunStore, RunWriter } from '../runs/run-store.js';
import type { McpSessions } from './mcp-sessions.js';

/** How often a client is told to poll `tasks/get`, in ms. */
const POLL_INTERVAL_MS = 500;
/** How long `tasks/cancel` waits for the task's owner to end it before it answers anyway. */
const CANCEL_WAIT_MS = 10_000;

/** The run that holds task `taskId` of session `sessionId`. */
const taskRun = (sessionId: string, taskId: string) => `mcp-task:${sessionId}:${taskId}`;

/** The last event of a task's run: the `Task` of `kind: 'task'`, or the result with the final task. */
type TaskEventContent = Task | { readonly task: Task; readonly result: CallToolResult };

/**
 * MCP Tasks (the SDK's experimental `TaskStore`) kept in a {@link RunStore}, so that `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel` work on any instance sharing the store (Redis):
 * a task is run `mcp-task:<session>:<taskId>` — a first event with the `Task` (`working`), and a
 * final one with the terminal `Task` and the `CallToolResult`. The instance that got the
 * task-augmented `tools/call` runs the tool ({@link McpTasks.start}), independent of any
 * connection; a `tasks/cancel` anywhere reaches it through the store's cancel channel and aborts
 * the tool (the Exec tool kills its process group), as does the end of the session. A task is kept
 * for the store's retention after its end. `serveMcp` (one connection, stdio) keeps its tasks the
 * same way in a memory store of its own, and cancels them when the connection closes. Internal to
 * `sluice/mcp`.
 *
 * @example
 * ```ts
 * const tasks = new McpTasks(store, sessions);
 * const task = await tasks.start(sessionId, requested, (signal) => runTool(signal));
 * const server = new Server(info, { capabilities, taskStore: tasks.forSession(sessionId) });
 * ```
 */
export class McpTasks {
  readonly #store: RunStore;
  readonly #sessions: McpSessions | undefined;
  /** The tasks running here, by run id: aborting one cancels its tool. */
  readonly #running = new Map<string, { readonly abort: AbortController; readonly done: Promise<void> }>();

  /** Without `sessions` (one connection: `serveMcp`), a task ends with {@link McpTasks.close} or its own end. */
  constructor(store: RunStore, sessions?: McpSessions) {
    this.#store = store;
    this.#sessions = sessions;
  }

  /**
   * Creates a task of `sessionId` and runs `run` for it here, in the background: its result (or
   * its failure, or a cancel) ends the task. Resolves with the new `Task` (`working`).
   */
  async start(
    sessionId: string,
    requested: CreateTaskOptions,
    run: (signal: AbortSignal) => Promise<CallToolResult>,
  ): Promise<Task> {
    const taskId = randomUUID();
    const runId = taskRun(sessionId, taskId);
    const writer = this.#store.openWriter(runId, { label: 'MCP task' });
    const now = new Date().toISOString();
    const task: Task = {
      taskId,
      status: 'working',
      ttl: requested.ttl ?? null,
      createdAt: now,
      lastUpdatedAt: now,
      pollInterval: POLL_INTERVAL_MS,
    };
    writer.append({ sequence: 0, kind: 'task', content: task, isFinal: false });
    const abort = new AbortController();
    const stopCancel = writer.onCancel((reason) => abort.abort(reason));
    const stopWatch = this.#sessions?.watch(sessionId, () => abort.abort('session ended'));
    const done = this.#runTask(writer, task, abort.signal, run).finally(() => {
      stopCancel();
      stopWatch?.();
      this.#running.delete(runId);
    });
    this.#running.set(runId, { abort, done });
    return task;
  }

  /** The SDK `TaskStore` of session `sessionId` (the SDK's transport here is stateless: it passes no session). */
  forSession(sessionId: string): TaskStore {
    return {
      createTask: () =>
        Promise.reject(new Error('sluice creates its tasks itself (a task-augmented tools/call)')),
      getTask: (taskId) => this.#get(sessionId, taskId),
      storeTaskResult: () => Promise.reject(new Error("a task's result is stored by the tool's run")),
      getTaskResult: async (taskId) => {
        const last = await this.#last(taskRun(sessionId, taskId));
        if (last === undefined || !('result' in last)) throw new Error(`Task ${taskId} has no result yet`);
        return last.result as Result;
      },
      updateTaskStatus: async (taskId, status, statusMessage) => {
        if (status !== 'cancelled')
          throw new Error(`Only a cancel changes a task's status here, not ${status}`);
        await this.#cancel(taskRun(sessionId, taskId), statusMessage ?? 'cancelled');
      },
      listTasks: async () => {
        const prefix = taskRun(sessionId, '');
        if (this.#store.runIds === undefined) throw new Error('this run store cannot list its runs');
        const ids = await this.#store.runIds(prefix);
        const tasks = await Promise.all(ids.map((runId) => this.#get(sessionId, runId.slice(prefix.length))));
        return {
          tasks: tasks
            .filter((task): task is Task => task !== null)
            .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
        };
      },
    };
  }

  /** Cancels the tasks running here (the server is closing) and waits for their ends to be stored. */
  async close(): Promise<void> {
    const running = [...this.#running.values()];
    for (const { abort } of running) abort.abort('server closed');
    await Promise.all(running.map(({ done }) => done));
  }

  async #runTask(
    writer: RunWriter,
    task: Task,
    signal: AbortSignal,
    run: (signal: AbortSignal) => Promise<CallToolResult>,
  ): Promise<void> {
    let result: CallToolResult;
    let status: Task['status'];
    let statusMessage: string | undefined;
    try {
      result = await run(signal);
      status = result.isError === true ? 'failed' : 'completed';
    } catch (error) {
      const message = (error as Error)?.message ?? String(error);
      result = { content: [{ type: 'text', text: message }], isError: true };
      status = 'failed';
      statusMessage = message;
    }
    if (signal.aborted) {
      status = 'cancelled';
      statusMessage = String(signal.reason ?? 'cancelled');
    }
    const ended: Task = {
      ...task,
      status,
      lastUpdatedAt: new Date().toISOString(),
      ...(statusMessage === undefined ? {} : { statusMessage }),
    };
    try {
      writer.append({ sequence: 1, kind: 'task', content: { task: ended, result }, isFinal: true });
      await writer.ended;
    } catch {
      // The store failed: the task cannot be read anywhere any more.
    } finally {
      writer.close();
    }
  }

  async #get(sessionId: string, taskId: string): Promise<Task | null> {
    if (!/^[\w-]{1,100}$/.test(taskId)) return null;
    const last = await this.#last(taskRun(sessionId, taskId));
    if (last === undefined) return null;
    return 'result' in last ? last.task : last;
  }

  /** The content of the run's newest event (`undefined` for an unknown run); an `end` sentinel as a cancelled task. */
  async #last(runId: string): Promise<TaskEventContent | undefined> {
    const info = await this.#store.info(runId);
    if (info === undefined || info.next === 0) return undefined;
    const event = await firstValueFrom(
      this.#store.read(runId, { after: info.next - 2 }).pipe(
        filter((record) => record.type === 'events'),
        map((record) => (record.type === 'events' ? record.events.at(-1) : undefined)),
        take(1),
      ),
      { defaultValue: undefined },
    );
    if (event === undefined) return undefined;
    return contentOf(event, event.kind === 'end' ? await this.#first(runId) : undefined);
  }

  async #first(runId: string): Promise<Task | undefined> {
    const event = await firstValueFrom(
      this.#store.read(runId).pipe(
        filter((record) => record.type === 'events'),
        map((record) => (record.type === 'events' ? record.events[0] : undefined)),
        take(1),
      ),
      { defaultValue: undefined },
    );
    return event?.kind === 'task' ? (event.content as Task) : undefined;
  }

  /** Asks the task's owner to cancel it, and waits (a while) for its end to be stored. */
  async #cancel(runId: string, reason: string): Promise<void> {
    const ended = firstValueFrom(
      this.#store.read(runId).pipe(
        filter((record) => record.type !== 'events' || record.events.some((event) => event.isFinal)),
        take(1),
        timeout({ first: CANCEL_WAIT_MS }),
      ),
      { defaultValue: undefined },
    ).catch(() => undefined);
    await this.#store.cancel(runId, reason, { by: 'tasks/cancel' });
    await ended;
  }
}

/** What event `event` of a task's run says; an `end` sentinel (a cancel the store applied) is a cancelled task. */
function contentOf(event: ChunkEvent<unknown>, first: Task | undefined): TaskEventContent | undefined {
  if (event.kind === 'task') return event.content as TaskEventContent;
  if (event.kind !== 'end' || first === undefined) return undefined;
  const reason = String((event.metadata as { reason?: unknown } | undefined)?.reason ?? 'cancelled');
  const task: Task = { ...first, status: 'cancelled', statusMessage: reason, lastUpdatedAt: first.createdAt };
  return { task, result: { content: [{ type: 'text', text: `Task cancelled: ${reason}` }], isError: true } };
}
