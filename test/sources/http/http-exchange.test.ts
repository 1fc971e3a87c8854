import { filter, map, take, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../../src/core/deferred.js';
import { Valve } from '../../../src/core/demand.js';
import { type HttpEvent, http } from '../../../src/sources/http.js';
import { withDemand } from '../../../src/testing/demand-marbles.js';
import { record } from '../../fixtures/http-recorder.js';
import { macrotask } from '../../support/macrotask.js';
import { newTestScheduler } from '../../support/test-scheduler.js';

const URL_ = 'http://127.0.0.1:9/fake';
const encoder = new TextEncoder();

/** A body stream that produces one of `chunks` per pull (highWaterMark 0: only a read pulls). */
function fakeBody(chunks: string[]) {
  const state = { pulls: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulls += 1;
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(encoder.encode(next));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { state, fetch: async () => new Response(body, { status: 200 }) };
}

/** Lets every pending promise job and I/O callback run (for asserting that nothing more happens). */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round++) await macrotask();
}

const contents = (events: HttpEvent[]) =>
  events.filter((event) => event.kind === 'body').map((e) => e.content);

describe('http in virtual time', () => {
  it('times out on the scheduler with TIMEOUT and aborts the request', () => {
    const testScheduler = newTestScheduler();
    let signal: AbortSignal | undefined;
    const never = (_url: unknown, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>(() => undefined);
    };
    testScheduler.run(({ expectObservable }) => {
      const source = http(URL_, undefined, { timeoutMs: 100, fetch: never });
      const error = expect.objectContaining({
        code: 'TIMEOUT',
        info: expect.objectContaining({ timeoutMs: 100, durationMs: 100, status: undefined, bytes: 0 }),
      });
      expectObservable(source).toBe('100ms #', undefined, error);
    });
    expect(signal?.aborted).toBe(true);
  });

  it('unsubscribing before the timeout aborts the request and frees the timer', () => {
    const testScheduler = newTestScheduler();
    let signal: AbortSignal | undefined;
    const never = (_url: unknown, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>(() => undefined);
    };
    testScheduler.run(({ expectObservable }) => {
      const source = http(URL_, undefined, { timeoutMs: 100, fetch: never, scheduler: testScheduler });
      expectObservable(source, '^ 50ms !').toBe('');
    });
    expect(signal?.aborted).toBe(true);
  });

  it('measures durationMs on the scheduler, and a finished exchange leaves no timeout behind', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 250); // flush() stops at frame 250
    const answer = deferred<Response>();
    const later = () => answer.promise;
    const recording = record(http(URL_, undefined, { timeoutMs: 1_000, scheduler, fetch: later }));
    scheduler.schedule(() => undefined, 250);
    scheduler.flush(); // virtual time is now 250
    answer.resolve(new Response('done'));
    expect(await recording.done).toEqual({});
    expect(recording.events.at(-1)?.content).toEqual({ status: 200, bytes: 4, durationMs: 250 });
    scheduler.maxFrames = Number.POSITIVE_INFINITY;
    scheduler.schedule(() => undefined, 2_000);
    scheduler.flush(); // past the timeout: nothing happens, the action was unsubscribed
    expect(recording.events.at(-1)?.kind).toBe('end');
  });

  it('a response without a body is a response event and an end event', async () => {
    const recording = record(
      http(URL_, undefined, { fetch: async () => new Response(null, { status: 204 }) }),
    );
    expect(await recording.done).toEqual({});
    expect(recording.events.map((event) => [event.sequence, event.kind, event.isFinal])).toEqual([
      [0, 'response', false],
      [1, 'end', true],
    ]);
    expect(recording.events[1]?.content).toMatchObject({ status: 204, bytes: 0 });
  });
});

describe('http demand with a pull-counting body', () => {
  it('reads nothing while the demand is paused from the start, and everything once it resumes', async () => {
    const { state, fetch } = fakeBody(['a', 'b', 'c']);
    const valve = new Valve();
    valve.pause();
    const recording = record(withDemand(valve, http(URL_, undefined, { fetch }).pipe(map((event) => event))));
    await settle();
    expect(state.pulls).toBe(0);
    expect(recording.events).toEqual([]);
    valve.resume();
    expect(await recording.done).toEqual({});
    expect(contents(recording.events).map((bytes) => new TextDecoder().decode(bytes as Uint8Array))).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('a consumer that pauses after the first chunk stops the reads there', async () => {
    const { state, fetch } = fakeBody(['a', 'b', 'c']);
    const valve = new Valve();
    const recording = record(
      withDemand(valve, http(URL_, undefined, { fetch }).pipe(filter((event) => event.kind === 'body'))),
      () => valve.pause(),
    );
    await recording.waitFor(() => true);
    await settle();
    expect(state.pulls).toBe(1);
    expect(recording.events).toHaveLength(1);
    valve.resume(); // the consumer pauses again on the next chunk
    await recording.waitFor((event) => event.sequence === 2);
    await settle();
    expect(state.pulls).toBe(2);
  });

  it('lines: holds back the lines already split from one read while paused', async () => {
    const { state, fetch } = fakeBody(['a\nb\nc\n']);
    const valve = new Valve();
    const recording = record(withDemand(valve, http(URL_, undefined, { fetch, lines: true })), (event) => {
      if (event.kind === 'body') valve.pause();
    });
    await recording.waitFor((event) => event.kind === 'body');
    await settle();
    expect(contents(recording.events)).toEqual(['a\n']);
    expect(state.pulls).toBe(1);
    valve.resume();
    await recording.waitFor((event) => event.content === 'b\n');
    await settle();
    expect(contents(recording.events)).toEqual(['a\n', 'b\n']);
    valve.resume();
    await recording.waitFor((event) => event.content === 'c\n');
    valve.resume();
    expect(await recording.done).toEqual({});
  });

  it('stops reading and cancels the body when the consumer unsubscribes synchronously', async () => {
    const { state, fetch } = fakeBody(['a', 'b', 'c', 'd']);
    const recording = record(http(URL_, undefined, { fetch }).pipe(take(2)));
    expect(await recording.done).toEqual({});
    await settle();
    expect(recording.events.map((event) => event.kind)).toEqual(['response', 'body']);
    expect(state.pulls).toBe(1);
    expect(state.cancelled).toBe(true);
  });
});
