import { randomUUID } from 'node:crypto';
import type {
  CreateTaskOptions,
  TaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { CallToolResult, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { isRunStoreError } from '../core/errors/run-store-error.js';
import { watchRunEnd } from '../runs/follow-run.js';
import { RunOutlet } from '../runs/run-outlet.js';
import type { LastRecord, RunStore } from '../runs/run-store.js';
import { invalidParamsError } from './mcp-server-factory.js';
import type { McpSessions } from './mcp-sessions.js';

/** How often a client is told to poll `tasks/get`, in ms. */
const POLL_INTERVAL_MS = 500;
/** How long `tasks/cancel` waits for the task's owner to end it before it answers anyway. */
const CANCEL_WAIT_MS = 10_000;
/** Tasks per `tasks/list` page, and how many of them are read at once. */
const LIST_PAGE = 50;
const LIST_READS = 8;

/** A task id: its creation time (ms, base 36, 9 digits: ids sort in creation order) and a UUID. */
const TASK_ID = /^[0-9a-z]{9}-[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/;

/** The run that holds task `taskId` of session `sessionId`. */
const taskRun = (sessionId: string, taskId: string) => `mcp-task:${sessionId}:${taskId}`;

/** What a task's run says of it: the `Task`, and its result once it has ended. */
interface TaskView {
  readonly task: Task;
  readonly result?: CallToolResult;
}

/**
 * MCP Tasks (the SDK's `TaskStore`) as runs of a {@link RunStore}, so `tasks/*` work on any
 * instance: a first event holds the `working` `Task`, the final one the ended `Task` and its
 * result. A run ended without its final event is `failed` (`cancelled` if a cancel was asked).
 */
export class McpTasks {
  readonly #store: RunStore;
  readonly #sessions: McpSessions | undefined;
  readonly #scheduler: SchedulerLike;
  /** The tasks running here, by run id: aborting one cancels its tool. */
  readonly #running = new Map<string, { readonly abort: AbortController; readonly done: Promise<void> }>();

  /** Without `sessions` (one connection: `serveMcp`), a task ends with {@link McpTasks.close} or its own end. */
  constructor(store: RunStore, sessions?: McpSessions, scheduler: SchedulerLike = asyncScheduler) {
    this.#store = store;
    this.#sessions = sessions;
    this.#scheduler = scheduler;
  }

  /** Whether `tasks/list` can be answered: the store lists its runs (`RunStore.runIds`). */
  get listable(): boolean {
    return typeof this.#store.runIds === 'function';
  }

  /** Starts `call` as a task here in the background; resolves with the `working` `Task` (`ttl`: the store's retention). */
  async start(
    sessionId: string,
    _requested: CreateTaskOptions,
    call: (signal: AbortSignal) => Promise<CallToolResult>,
  ): Promise<Task> {
    const created = Date.now();
    const taskId = `${created.toString(36).padStart(9, '0')}-${randomUUID()}`;
    const runId = taskRun(sessionId, taskId);
    const writer = new RunOutlet(this.#store, runId, { label: 'MCP task' });
    const task = this.#working(taskId);
    writer.add('task', task);
    const abort = new AbortController();
    // The store failed, or ended the run for a lost lease: its result could never be stored.
    writer.stored.catch((error: unknown) => abort.abort(`the run store failed: ${messageOf(error)}`));
    const stopCancel = writer.onCancel((reason) => abort.abort(reason));
    const stopWatch = this.#sessions?.watch(sessionId, () => abort.abort('session ended'));
    const done = this.#callTool(writer, task, abort.signal, call).finally(() => {
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
      getTask: async (taskId) => (await this.#view(sessionId, taskId))?.task ?? null,
      storeTaskResult: () => Promise.reject(new Error("a task's result is stored by the tool's run")),
      getTaskResult: async (taskId) => {
        const result = (await this.#view(sessionId, taskId))?.result;
        if (result === undefined) throw new Error(`Task ${taskId} has no result yet`);
        return result as Result;
      },
      updateTaskStatus: async (taskId, status, statusMessage) => {
        if (status !== 'cancelled')
          throw new Error(`Only a cancel changes a task's status here, not ${status}`);
        await this.#cancel(taskRun(sessionId, taskId), statusMessage ?? 'cancelled');
      },
      listTasks: (cursor) => this.#list(sessionId, cursor),
    };
  }

  /** Cancels the tasks running here (the server is closing) and waits for their ends to be stored. */
  async close(): Promise<void> {
    const running = [...this.#running.values()];
    for (const { abort } of running) abort.abort('server closed');
    await Promise.all(running.map(({ done }) => done));
  }

  /** The `working` `Task` of a new task. */
  #working(taskId: string): Task {
    const createdAt = new Date(Number.parseInt(taskId.slice(0, 9), 36)).toISOString();
    return {
      taskId,
      status: 'working',
      ttl: this.#store.retainMs ?? null,
      createdAt,
      lastUpdatedAt: createdAt,
      pollInterval: POLL_INTERVAL_MS,
    };
  }

  async #callTool(
    writer: RunOutlet,
    task: Task,
    signal: AbortSignal,
    call: (signal: AbortSignal) => Promise<CallToolResult>,
  ): Promise<void> {
    let result: CallToolResult;
    let status: Task['status'];
    let statusMessage: string | undefined;
    try {
      result = await call(signal);
      status = result.isError === true ? 'failed' : 'completed';
    } catch (error) {
      const message = messageOf(error);
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
      writer.add('task', { task: ended, result }, true);
    } catch (error) {
      writer.fail(error); // a result the store cannot hold: the task fails with why
    }
    // A failed store leaves the run without its final event: every instance reads it as `failed`.
    await writer.stored.catch(() => {});
  }

  /** What task `taskId` of `sessionId` is now, from its run's newest record; `undefined` if unknown. */
  async #view(sessionId: string, taskId: string): Promise<TaskView | undefined> {
    if (!TASK_ID.test(taskId)) return undefined;
    const runId = taskRun(sessionId, taskId);
    let last: LastRecord | undefined;
    try {
      last = await this.#store.lastRecord(runId);
    } catch (error) {
      if (isRunStoreError(error, 'RUN_NOT_FOUND')) return undefined;
      throw error;
    }
    if (last === undefined) return { task: this.#working(taskId) }; // its first event is on its way
    if (last.type === 'event') {
      const content = last.event.kind === 'task' ? (last.event.content as Task | TaskView) : undefined;
      if (content !== undefined && 'task' in content) return content;
      return { task: content ?? this.#working(taskId) };
    }
    // Ended without its final event: its owner died (the lease's verdict), or the store failed.
    const cancel = (await this.#store.info(runId))?.cancelRequest;
    const status = cancel === undefined ? 'failed' : 'cancelled';
    const statusMessage = cancel === undefined ? last.failure.message : String(cancel.reason ?? 'cancelled');
    const task: Task = { ...this.#working(taskId), status, statusMessage }; // when it ended is unknown
    return { task, result: { content: [{ type: 'text', text: statusMessage }], isError: true } };
  }

  /** One page of the session's tasks, oldest first, after `cursor` (a task id); `nextCursor` when more follow. */
  async #list(
    sessionId: string,
    cursor: string | undefined,
  ): Promise<{ tasks: Task[]; nextCursor?: string }> {
    if (typeof this.#store.runIds !== 'function') throw new Error('this run store cannot list its runs');
    if (cursor !== undefined && !TASK_ID.test(cursor)) throw invalidParamsError(`Invalid cursor: ${cursor}`);
    const prefix = taskRun(sessionId, '');
    const ids = (await this.#store.runIds(prefix))
      .map((runId) => runId.slice(prefix.length))
      .filter((taskId) => TASK_ID.test(taskId) && (cursor === undefined || taskId > cursor))
      .sort();
    const page = ids.slice(0, LIST_PAGE);
    const tasks: Task[] = [];
    for (let from = 0; from < page.length; from += LIST_READS) {
      const views = await Promise.all(
        page.slice(from, from + LIST_READS).map((taskId) => this.#view(sessionId, taskId)),
      );
      for (const view of views) if (view !== undefined) tasks.push(view.task);
    }
    return ids.length > page.length ? { tasks, nextCursor: page.at(-1) as string } : { tasks };
  }

  /** Asks the task's owner to cancel it, and waits (a while) for its end to be stored. */
  async #cancel(runId: string, reason: string): Promise<void> {
    const ended = new Promise<void>((resolve) => {
      const watching = watchRunEnd(this.#store, runId, resolve);
      watching.add(resolve); // ended, or given up after CANCEL_WAIT_MS
      watching.add(this.#scheduler.schedule(() => watching.unsubscribe(), CANCEL_WAIT_MS));
    });
    await this.#store.cancel(runId, reason, { by: 'tasks/cancel' });
    await ended;
  }
}

const messageOf = (error: unknown): string => (error as Error)?.message ?? String(error);
