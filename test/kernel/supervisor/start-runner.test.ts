import { Observable, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deferred } from '../../../src/core/deferred.js';
import type { RunnerLink, RunnerLinkEvent } from '../../../src/kernel/supervisor/runner.js';
import { startRunner, ToolCallQueue } from '../../../src/kernel/supervisor/start-runner.js';
import type { ToolChunk } from '../../../src/kernel/tools/tool.js';
import { createToolRegistry } from '../../../src/kernel/tools/tool-registry.js';
import { macrotask } from '../../support/macrotask.js';
import { newTestScheduler } from '../../support/test-scheduler.js';

const line = (message: object): RunnerLinkEvent => ({
  type: 'line',
  stream: 'stdout',
  text: `${JSON.stringify(message)}\n`,
});
const token = (content: string): ToolChunk => ({ op: 'chunk', kind: 'token', content });
const exit: RunnerLinkEvent = { type: 'exit', exitCode: 0, signal: null };
const link = (events$: Observable<RunnerLinkEvent>, sent: string[] = []): RunnerLink => ({
  events$,
  send: (text) => void sent.push(text),
});
const registry = createToolRegistry();

describe('startRunner', () => {
  it('streams chunks as the runner sends them and completes when it exits', () => {
    const scheduler = newTestScheduler();
    let done: Promise<unknown> | undefined;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events = cold('-a-b--x-|', {
        a: line(token('A')),
        b: line(token('B')),
        x: exit,
      });
      const subs = '       ^-----!   ';
      const expected = '   -a-b--|   ';
      const handle = startRunner(link(events), { pid: 1, registry, scheduler });
      expectObservable(handle.chunks$).toBe(expected, { a: token('A'), b: token('B') });
      expectSubscriptions(events.subscriptions).toBe(subs);
      done = handle.wait();
    });
    return expect(done).resolves.toMatchObject({
      exitCode: 0,
      timedOut: false,
      chunks: [token('A'), token('B')],
      durationMs: 6,
    });
  });

  it('kills the runner at the wait() deadline, in virtual time', () => {
    const scheduler = newTestScheduler();
    let done: Promise<unknown> | undefined;
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const events = cold('-a--------b-x|', { a: line(token('A')), b: line(token('B')), x: exit });
      const subs = '       ^---!         ';
      const expected = '   -a--|         ';
      const handle = startRunner(link(events), { pid: 2, registry, scheduler });
      done = handle.wait({ timeoutMs: 4 });
      expectObservable(handle.chunks$).toBe(expected, { a: token('A') });
      expectSubscriptions(events.subscriptions).toBe(subs);
    });
    return expect(done).resolves.toMatchObject({
      pid: 2,
      exitCode: null,
      signal: null,
      timedOut: true,
      chunks: [token('A')],
      durationMs: 4,
    });
  });

  it('aborts a running tool call at the deadline', async () => {
    const scheduler = newTestScheduler();
    const aborted: number[] = [];
    const tools = createToolRegistry().register({
      name: 'Hang',
      schema: z.object({}),
      handler: (_args, ctx) =>
        new Promise(() => ctx.signal?.addEventListener('abort', () => aborted.push(scheduler.now()))),
    });
    let done: Promise<unknown> | undefined;
    const sent: string[] = [];
    scheduler.run(({ cold, expectSubscriptions }) => {
      const events = cold('--t--------', { t: line({ op: 'tool_call', id: 1, name: 'Hang', args: {} }) });
      const subs = '       ^-----!    ';
      const handle = startRunner(link(events, sent), { pid: 3, registry: tools, scheduler });
      done = handle.wait({ timeoutMs: 6 });
      expectSubscriptions(events.subscriptions).toBe(subs);
    });
    await expect(done).resolves.toMatchObject({
      timedOut: true,
      toolCalls: [{ id: 1, name: 'Hang', result: undefined }],
    });
    expect(aborted).toEqual([6]);
    expect(sent).toEqual([]);
  });

  it('stops listening to a synchronous source when the runner exits', () => {
    let emitted = 0;
    const events = new Observable<RunnerLinkEvent>((subscriber) => {
      const all = [line(token('A')), exit];
      for (let i = 0; i < 100 && !subscriber.closed; i++) {
        emitted += 1;
        subscriber.next(all[i] ?? line(token('late')));
      }
    });
    const handle = startRunner(link(events), { pid: 4, registry, scheduler: newTestScheduler() });
    expect(emitted).toBe(2);
    const seen: ToolChunk[] = [];
    handle.chunks$.pipe(take(1)).subscribe((chunk) => seen.push(chunk));
    expect(seen).toEqual([token('A')]);
  });

  it('answers tool calls on the link, including bad ones, and keeps going', async () => {
    const sent: string[] = [];
    const events = new Observable<RunnerLinkEvent>((subscriber) => {
      subscriber.next(line({ op: 'tool_call', id: 'x', name: 'Missing', args: {} }));
      subscriber.next(line({ op: 'tool_call', name: 'Missing' }));
    });
    const handle = startRunner(link(events, sent), { pid: 5, registry, scheduler: newTestScheduler() });
    await macrotask();
    expect(sent.map((text) => JSON.parse(text))).toEqual([
      {
        op: 'tool_result',
        id: 'x',
        result: {
          ok: false,
          error: { code: 'UNKNOWN_TOOL', message: 'Unknown tool `Missing` (registered: none)' },
        },
      },
      {
        op: 'tool_result',
        id: null,
        result: {
          ok: false,
          error: {
            code: 'INVALID_MESSAGE',
            message: 'Invalid tool call: `id` must be a string or an integer, got nothing',
          },
        },
      },
    ]);
    handle.kill();
    await expect(handle.wait()).resolves.toMatchObject({ exitCode: null, chunks: [] });
  });
});

describe('ToolCallQueue', () => {
  it('runs at most `max` tasks at once and starts the waiting ones in order', async () => {
    const queue = new ToolCallQueue(2);
    const started: number[] = [];
    const gates = [0, 1, 2, 3].map(() => deferred<void>());
    for (const [index, gate] of gates.entries()) {
      queue.add(() => {
        started.push(index);
        return gate.promise;
      });
    }
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve();
    await gates[1]?.promise;
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve();
    await gates[0]?.promise;
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('starts none of the waiting tasks after clear()', async () => {
    const queue = new ToolCallQueue(1);
    const first = deferred<void>();
    let second = false;
    queue.add(() => first.promise);
    queue.add(async () => {
      second = true;
    });
    queue.clear();
    first.resolve();
    await first.promise;
    await Promise.resolve();
    expect(second).toBe(false);
  });
});
