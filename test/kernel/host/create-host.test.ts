import { concatMap, Observable, of, Subject } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../../src/core/chunk.js';
import { deferred } from '../../../src/core/deferred.js';
import {
  type InvalidRequestError,
  isInvalidRequestError,
} from '../../../src/core/errors/invalid-request-error.js';
import { directSinkOf } from '../../../src/core/subscriber-chain.js';
import { createHost } from '../../../src/kernel/host/create-host.js';
import type { Host, HostStream, StreamProducer } from '../../../src/kernel/host/host.js';
import type { HostcallOutcome } from '../../../src/kernel/protocol/hostcall-outcome.js';
import type { JsonValue } from '../../../src/kernel/protocol/json-value.js';
import {
  createMacrotaskScheduler,
  type Macrotask,
} from '../../../src/kernel/scheduler/macrotask-scheduler.js';
import { joinRuns } from '../../../src/operators/join-runs.js';
import { chunk } from '../../support/chunk.js';
import { newTestScheduler } from '../../support/test-scheduler.js';

const event = (content: JsonValue, sequence = 0, isFinal = false): ChunkEvent<JsonValue> =>
  chunk(sequence, content, isFinal, { kind: 'chunk' });
const events = {
  a: event('a'),
  b: event('b'),
  c: event('c'),
  d: event('d'),
  e: event('e'),
  f: event('f'),
  g: event('g'),
};
/** One letter per delivered outcome: the chunk itself, `F` for the null final chunk, `E` for an Error. */
const letter = (outcome: HostcallOutcome): string =>
  outcome.type === 'error'
    ? 'E'
    : outcome.type === 'success'
      ? 'S'
      : outcome.chunk === null
        ? 'F'
        : String(outcome.chunk);

function virtualHost(testScheduler: TestScheduler, producer: StreamProducer, warnings: string[] = []) {
  const scheduler = createMacrotaskScheduler<HostcallOutcome>({
    clock: testScheduler,
    driver: testScheduler,
  });
  const host = createHost({
    scheduler,
    logger: { warn: (message) => warnings.push(message) },
    producers: { exec: producer },
  });
  const delivered = new Subject<string>();
  const outcomes: HostcallOutcome[] = [];
  host.connect('ext-a', (task) => {
    outcomes.push(task.outcome);
    delivered.next(letter(task.outcome));
  });
  return { host, delivered, outcomes };
}

const streamExec = (callId: string, extra: Record<string, JsonValue> = {}) => ({
  callId,
  kind: 'exec',
  payload: { cmd: 'make', stream: true, ...extra },
});

describe('createHost — streaming calls in virtual time', () => {
  it('delivers a flowing stream as it is produced, then the null final chunk; the producer is subscribed once', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const producer = cold('-a-b-c|', events);
      const producerSubs = ' ^-----!';
      const expected = '     -a-b-cF';
      const { host, delivered } = virtualHost(testScheduler, () => producer);
      host.hostcall('ext-a', streamExec('hc-1'));
      host.pull('ext-a', 'hc-1', Number.POSITIVE_INFINITY);
      expectObservable(delivered).toBe(expected);
      expectSubscriptions(producer.subscriptions).toBe(producerSubs);
    });
  });

  it('cancelStream unsubscribes the producer at once and ends with one null final chunk', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions, time }) => {
      const producer = cold('-a-b-c-d-e|', events);
      const producerSubs = ' ^---!';
      const expected = '     -a-bF';
      const { host, delivered } = virtualHost(testScheduler, () => producer);
      host.hostcall('ext-a', streamExec('hc-1'));
      host.pull('ext-a', 'hc-1', Number.POSITIVE_INFINITY);
      testScheduler.schedule(() => host.cancelStream('ext-a', 'hc-1'), time('----|'));
      testScheduler.schedule(() => host.cancelStream('ext-a', 'hc-1'), time('------|'));
      expectObservable(delivered).toBe(expected);
      expectSubscriptions(producer.subscriptions).toBe(producerSubs);
    });
  });

  it('stalls when the channel stays full: the timer starts when it fills, then cancel + warning', () => {
    const testScheduler = newTestScheduler();
    let stream: HostStream | undefined;
    const warnings: string[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const producer = cold('-a-b-c-d-e-f-g|', events);
      const producerSubs = ' ^--------!';
      const expected = '     ---------F';
      const { host, delivered } = virtualHost(testScheduler, () => producer, warnings);
      host.hostcall('ext-a', streamExec('hc-1', { buffer_size: 2, stall_timeout_ms: 6 }));
      stream = host.stream('ext-a', 'hc-1');
      expectObservable(delivered).toBe(expected);
      expectSubscriptions(producer.subscriptions).toBe(producerSubs);
    });
    expect(warnings).toEqual(['Stream stalled: JS consumer did not pull for 0.006s']);
    expect(stream?.endReason).toBe('stalled');
    expect(stream?.closed).toBe(true);
  });

  it('a slot freed by a delivery clears the stall timer; it restarts when the channel fills again', () => {
    const testScheduler = newTestScheduler();
    const warnings: string[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions, time }) => {
      const producer = cold('-a-b----------c-', events);
      const producerSubs = ' ^-------------------!';
      const expected = '     ------a-------------F';
      const { host, delivered } = virtualHost(testScheduler, () => producer, warnings);
      host.hostcall('ext-a', streamExec('hc-1', { buffer_size: 2, stall_timeout_ms: 6 }));
      testScheduler.schedule(() => host.pull('ext-a', 'hc-1', 1), time('------|'));
      expectObservable(delivered).toBe(expected);
      expectSubscriptions(producer.subscriptions).toBe(producerSubs);
    });
    expect(warnings).toHaveLength(1);
  });

  it('an error mid-stream comes after the chunks, as one Error, and nothing after it', () => {
    const testScheduler = newTestScheduler();
    const failure = Object.assign(new Error('exit code 1'), { code: 'EXEC_FAILED' });
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const producer = cold('-a-b-#', events, failure);
      const producerSubs = ' ^----!';
      const { host, delivered } = virtualHost(testScheduler, () => producer);
      host.hostcall('ext-a', streamExec('hc-1'));
      host.pull('ext-a', 'hc-1', Number.POSITIVE_INFINITY);
      expectObservable(delivered).toBe('-a-b-E');
      expectSubscriptions(producer.subscriptions).toBe(producerSubs);
    });
  });

  it('a producer of several runs (concatMap) ends with STREAM_SEQUENCE at the second run, never silently at the first', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold('-a-b-(x|)', { ...events, x: event('x', 2, true) });
      const second = cold('-c-(y|)', { ...events, y: event('y', 1, true) });
      const { host, delivered, outcomes } = virtualHost(testScheduler, () =>
        of(first, second).pipe(concatMap((run) => run)),
      );
      host.hostcall('ext-a', streamExec('hc-1'));
      host.pull('ext-a', 'hc-1', Number.POSITIVE_INFINITY);
      expectObservable(delivered).toBe('-a-b--E');
      // The second run is stopped at its first event: it was starting, not meant to run.
      expectSubscriptions(second.subscriptions).toBe('-----^!');
      testScheduler.flush();
      expect(outcomes.at(-1)).toMatchObject({
        type: 'error',
        code: 'STREAM_SEQUENCE',
        message: expect.stringContaining('joinRuns()'),
      });
    });
  });

  it('the same runs through joinRuns() are one stream: every run runs, one final chunk at the end', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold('-a-b-(x|)', { ...events, x: event('x', 2, true) });
      const second = cold('-c-(y|)', { ...events, y: event('y', 1, true) });
      const { host, delivered } = virtualHost(testScheduler, () =>
        of(first, second).pipe(
          concatMap((run) => run),
          joinRuns(),
        ),
      );
      host.hostcall('ext-a', streamExec('hc-1'));
      host.pull('ext-a', 'hc-1', Number.POSITIVE_INFINITY);
      expectObservable(delivered).toBe('-a-b-xc-(yF)');
      expectSubscriptions(second.subscriptions).toBe('-----^--!');
    });
  });

  it('a final event waits for its producer to complete', () => {
    const testScheduler = newTestScheduler();
    testScheduler.run(({ cold, expectObservable }) => {
      const producer = cold('-a-x--|', { ...events, x: event('x', 1, true) });
      const { host, delivered } = virtualHost(testScheduler, () => producer);
      host.hostcall('ext-a', streamExec('hc-1'));
      host.pull('ext-a', 'hc-1', Number.POSITIVE_INFINITY);
      expectObservable(delivered).toBe('-a----x');
    });
  });

  it('stops listening to a synchronous source that goes on after its final event, or overflows', () => {
    let yielded = 0;
    function* naturals() {
      for (let n = 0; ; n += 1) {
        yielded += 1;
        yield event(n, n, n === 4);
      }
    }
    const source = () =>
      new Observable<ChunkEvent<JsonValue>>((subscriber) => {
        const iterator = naturals();
        while (!subscriber.closed) subscriber.next(iterator.next().value as ChunkEvent<JsonValue>);
      });
    const scheduler = createMacrotaskScheduler<HostcallOutcome>({ driver: 'manual' });
    const host = createHost({ scheduler, logger: { warn: () => {} }, producers: { exec: source } });
    const seen: HostcallOutcome[] = [];
    host.connect('ext-a', (task) => seen.push(task.outcome));
    host.hostcall('ext-a', streamExec('hc-1'));
    host.pull('ext-a', 'hc-1', Number.POSITIVE_INFINITY);
    scheduler.runUntilIdle();
    expect(yielded).toBe(6);
    expect(seen.map(letter)).toEqual(['0', '1', '2', '3', 'E']);
    expect(seen.at(-1)).toMatchObject({ type: 'error', code: 'STREAM_SEQUENCE' });

    // A synchronous source that ignores the pause altogether is cut off with BUFFER_OVERFLOW.
    let endless = 0;
    const flood = () =>
      new Observable<ChunkEvent<JsonValue>>((subscriber) => {
        while (!subscriber.closed) {
          endless += 1;
          subscriber.next(event('x'));
        }
      });
    const host2 = createHost({ scheduler, logger: { warn: () => {} }, producers: { exec: flood } });
    const seen2: HostcallOutcome[] = [];
    host2.connect('ext-b', (task) => seen2.push(task.outcome));
    host2.hostcall('ext-b', streamExec('hc-2', { buffer_size: 1 }));
    scheduler.runUntilIdle();
    expect(endless).toBe(65_537);
    expect(seen2).toEqual([
      {
        type: 'error',
        code: 'BUFFER_OVERFLOW',
        message: 'The producer of `hc-2` ignored backpressure: 65536 chunks undelivered',
      },
    ]);
  });

  it('a read that overshoots the channel holds the producer until the channel alone is below capacity, then resumes it once', () => {
    const scheduler = createMacrotaskScheduler<HostcallOutcome>({ driver: 'manual' });
    const resumedAfter: number[] = [];
    const delivered: string[] = [];
    // Pushes ten chunks into the channel at once (one pipe read split into lines), then completes
    // when its demand resumes, noting how many chunks had been delivered by then.
    const oneRead: StreamProducer = () =>
      new Observable<ChunkEvent<JsonValue>>((subscriber) => {
        const sink = directSinkOf<ChunkEvent<JsonValue>>(subscriber);
        if (sink === undefined) throw new Error('the channel offers no direct sink');
        for (let index = 0; index < 10; index += 1) sink.push(event(`c${index}`, index));
        return sink.demand.onChange((paused) => {
          if (paused) return;
          resumedAfter.push(delivered.length);
          subscriber.complete();
        });
      });
    const host = createHost({ scheduler, logger: { warn: () => {} }, producers: { exec: oneRead } });
    host.connect('ext-a', (task) => delivered.push(letter(task.outcome)));
    host.hostcall('ext-a', streamExec('hc-1', { buffer_size: 4 }));
    const stream = host.stream('ext-a', 'hc-1') as HostStream;
    const states: string[] = [];
    for (let pull = 0; pull < 10; pull += 1) {
      host.pull('ext-a', 'hc-1', 1);
      scheduler.runUntilIdle();
      states.push(`${stream.channelled}${stream.paused ? 'p' : ''}`);
    }
    // Capacity 4 counts the channel and the scheduler queue: flowing again once 3 wait in all. The
    // producer then completes, and its ending waits in the channel (counted) behind c7..c9.
    expect(states).toEqual(['9p', '8p', '7p', '6p', '5p', '4p', '4', '3', '2', '0']);
    expect(resumedAfter).toEqual([7]);
    expect(delivered).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'F']);
  });
});

describe('createHost — dispatch and validation', () => {
  function manualHost(options: Parameters<typeof createHost>[0] = {}) {
    const scheduler = createMacrotaskScheduler<HostcallOutcome>({ driver: 'manual' });
    const host = createHost({ scheduler, logger: { warn: () => {} }, ...options });
    const delivered: Macrotask<HostcallOutcome>[] = [];
    host.connect('ext-a', (task) => delivered.push(task));
    const outcomes = () => {
      scheduler.runUntilIdle();
      return delivered.map((task) => [task.callId, task.outcome]);
    };
    return { host, scheduler, delivered, outcomes };
  }

  it('completes a bad request or payload with INVALID_REQUEST naming the field, never a throw', () => {
    const { host, outcomes } = manualHost();
    host.hostcall('ext-a', { callId: 'hc-1', kind: 'exec', payload: { stream: true } });
    host.hostcall('ext-a', {
      callId: 'hc-2',
      kind: 'exec',
      payload: { cmd: 'ls', stream: true, buffer_size: 0 },
    });
    host.hostcall('ext-a', { callId: 'hc-3', kind: 'http', payload: { url: 'ftp://x', stream: true } });
    host.hostcall('ext-a', { callId: 'hc-4', kind: 'teleport', payload: {} });
    host.hostcall('ext-a', { callId: 'hc-5', kind: 'exec', payload: { cmd: 'ls', stream: 'yes' } });
    host.hostcall('ext-a', { callId: 'hc-6', kind: 'exec', payload: { cmd: 'ls', colour: true } });
    const messages = outcomes().map(([callId, outcome]) => [
      callId,
      (outcome as { code: string }).code,
      (outcome as { message: string }).message,
    ]);
    expect(messages).toEqual([
      ['hc-1', 'INVALID_REQUEST', expect.stringContaining('`payload.cmd`')],
      [
        'hc-2',
        'INVALID_REQUEST',
        expect.stringContaining('`payload.buffer_size` must be an integer ≥ 1, got 0 (number)'),
      ],
      ['hc-3', 'INVALID_REQUEST', expect.stringContaining('`payload.url` must be an absolute http(s) URL')],
      ['hc-4', 'INVALID_REQUEST', expect.stringContaining('`kind`')],
      ['hc-5', 'INVALID_REQUEST', expect.stringContaining('`payload.stream` must be a boolean')],
      ['hc-6', 'INVALID_REQUEST', expect.stringContaining('`payload.colour` is not a known field')],
    ]);
  });

  it('throws only for a request without a usable callId (there is nothing to complete): INVALID_REQUEST', () => {
    const { host } = manualHost();
    const thrown = (request: unknown): unknown => {
      try {
        host.hostcall('ext-a', request);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const missing = thrown({ kind: 'exec', payload: {} });
    expect(isInvalidRequestError(missing)).toBe(true);
    expect((missing as InvalidRequestError).info).toEqual({ field: 'callId', value: undefined });
    expect(thrown(null)).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'Invalid hostcall request: `callId` must be a non-empty string, got nothing',
    });
    expect(thrown({ callId: 7 })).toMatchObject({ message: expect.stringContaining('got 7 (number)') });
  });

  it('other kinds ignore stream: true and complete once from their handler; unhandled kinds are UNSUPPORTED', async () => {
    const { host, outcomes } = manualHost({
      handlers: {
        tool: (payload) => ({ echoed: (payload.text as string) ?? null }),
        session: () => {
          throw Object.assign(new Error('no session'), { code: 'NO_SESSION' });
        },
        events: async () => 'later',
      },
    });
    host.hostcall('ext-a', { callId: 'hc-1', kind: 'tool', payload: { text: 'hi', stream: true } });
    host.hostcall('ext-a', { callId: 'hc-2', kind: 'session', payload: { stream: 'x', buffer_size: 0 } });
    host.hostcall('ext-a', { callId: 'hc-3', kind: 'ui', payload: { stream: true } });
    host.hostcall('ext-a', { callId: 'hc-4', kind: 'events', payload: {} });
    await Promise.resolve();
    const remove = host.register('ui', () => 'now handled');
    host.hostcall('ext-a', { callId: 'hc-5', kind: 'ui', payload: {} });
    remove();
    host.hostcall('ext-a', { callId: 'hc-6', kind: 'ui', payload: {} });
    expect(outcomes()).toEqual([
      ['hc-1', { type: 'success', value: { echoed: 'hi' } }],
      ['hc-2', { type: 'error', code: 'NO_SESSION', message: 'no session' }],
      ['hc-3', { type: 'error', code: 'UNSUPPORTED', message: 'No handler for hostcall kind `ui`' }],
      ['hc-4', { type: 'success', value: 'later' }],
      ['hc-5', { type: 'success', value: 'now handled' }],
      ['hc-6', { type: 'error', code: 'UNSUPPORTED', message: 'No handler for hostcall kind `ui`' }],
    ]);
  });

  it('rejects a call id already in flight, and a producer factory that throws ends its stream with an Error', () => {
    const { host, outcomes } = manualHost({
      producers: {
        exec: () => new Observable<ChunkEvent<JsonValue>>(() => {}),
        http: () => {
          throw new TypeError('Expected the `url` option to be valid');
        },
      },
    });
    host.hostcall('ext-a', streamExec('hc-1'));
    host.hostcall('ext-a', streamExec('hc-1'));
    host.hostcall('ext-a', {
      callId: 'hc-2',
      kind: 'http',
      payload: { url: 'http://127.0.0.1/x', stream: true },
    });
    expect(outcomes()).toEqual([
      [
        'hc-1',
        { type: 'error', code: 'INVALID_REQUEST', message: 'The call id `hc-1` is already in flight' },
      ],
      ['hc-2', { type: 'error', code: 'HOSTCALL_FAILED', message: 'Expected the `url` option to be valid' }],
    ]);
    expect(host.activeStreams()).toEqual([{ extensionId: 'ext-a', callId: 'hc-1' }]);
  });

  it("unloadExtension cancels only that extension's streams; pull/cancel of unknown calls are no-ops", () => {
    const unsubscribed: string[] = [];
    const { host, scheduler, delivered } = manualHost({
      producers: {
        exec: (_payload, context) =>
          new Observable<ChunkEvent<JsonValue>>(() => () => unsubscribed.push(context.callId)),
      },
    });
    const other: Macrotask<HostcallOutcome>[] = [];
    host.connect('ext-b', (task) => other.push(task));
    host.hostcall('ext-a', streamExec('hc-1'));
    host.hostcall('ext-b', streamExec('hc-2'));
    host.hostcall('ext-a', streamExec('hc-3'));
    const first = host.stream('ext-a', 'hc-1');
    host.pull('ext-a', 'nope', 3);
    host.cancelStream('ext-a', 'nope');
    host.unloadExtension('ext-zzz');
    host.unloadExtension('ext-a');
    scheduler.runUntilIdle();
    expect(unsubscribed).toEqual(['hc-1', 'hc-3']);
    expect(first?.endReason).toBe('unloaded');
    expect(delivered.map((task) => [task.callId, task.outcome])).toEqual([
      ['hc-1', { type: 'streamChunk', sequence: 0, chunk: null, isFinal: true }],
      ['hc-3', { type: 'streamChunk', sequence: 0, chunk: null, isFinal: true }],
    ]);
    expect(other).toEqual([]);
    expect(host.activeStreams()).toEqual([{ extensionId: 'ext-b', callId: 'hc-2' }]);
    expect(host.activeStreams('ext-a')).toEqual([]);
  });

  it('keys calls by (extensionId, callId): two extensions use `hc-1` independently', () => {
    const unsubscribed: string[] = [];
    const producer: StreamProducer = (_payload, context) =>
      new Observable<ChunkEvent<JsonValue>>((subscriber) => {
        subscriber.next(event(`${context.extensionId} 1`));
        subscriber.next(event(`${context.extensionId} 2`));
        return () => unsubscribed.push(context.extensionId);
      });
    const scheduler = createMacrotaskScheduler<HostcallOutcome>({ driver: 'manual' });
    const host = createHost({ scheduler, logger: { warn: () => {} }, producers: { exec: producer } });
    const seen: string[] = [];
    const record = (task: Macrotask<HostcallOutcome>) =>
      seen.push(`${task.extensionId} ${letter(task.outcome)}`);
    const a = host.connect('ext-a', record);
    const b = host.connect('ext-b', record);
    a.send(streamExec('hc-1'));
    b.send(streamExec('hc-1'));
    expect(host.activeStreams()).toEqual([
      { extensionId: 'ext-a', callId: 'hc-1' },
      { extensionId: 'ext-b', callId: 'hc-1' },
    ]);
    // ext-b pulls and cancels its own hc-1: ext-a's stream does not move and stays open.
    b.pull('hc-1', 1);
    scheduler.runUntilIdle();
    expect(seen).toEqual(['ext-b ext-b 1']);
    expect(host.stream('ext-a', 'hc-1')?.credit).toBe(0);
    b.cancelStream('hc-1');
    scheduler.runUntilIdle();
    expect(seen).toEqual(['ext-b ext-b 1', 'ext-b F']);
    expect(unsubscribed).toEqual(['ext-b']);
    expect(host.stream('ext-a', 'hc-1')?.closed).toBe(false);
    // A call id of ext-a that ext-b never used: ext-b's pull and cancel are no-ops.
    a.send({ ...streamExec('hc-2') });
    b.pull('hc-2', 5);
    b.cancelStream('hc-2');
    scheduler.runUntilIdle();
    expect(host.stream('ext-a', 'hc-2')).toMatchObject({ credit: 0, closed: false });
    a.pull('hc-1', 2);
    a.cancelStream('hc-1');
    scheduler.runUntilIdle();
    expect(seen.slice(2)).toEqual(['ext-a ext-a 1', 'ext-a ext-a 2', 'ext-a F']);
    // The same call id in flight twice for one extension is still refused.
    a.send(streamExec('hc-2'));
    scheduler.runUntilIdle();
    expect(seen.at(-1)).toBe('ext-a E');
  });

  it('a delivery callback that throws is logged and never stops the other deliveries (real-time driver)', async () => {
    const warnings: { message: string; details: unknown }[] = [];
    const host = createHost({
      logger: { warn: (message, details) => warnings.push({ message, details }) },
      handlers: { tool: (payload) => payload.n as number },
    });
    const seen: string[] = [];
    const finished = deferred<void>();
    host.connect('ext-a', (task) => {
      if (task.callId === 'hc-0') throw new Error('listener broke');
      seen.push(task.callId);
    });
    host.connect('ext-b', (task) => {
      seen.push(`b:${task.callId}`);
      finished.resolve();
    });
    for (let n = 0; n < 5; n += 1)
      host.hostcall('ext-a', { callId: `hc-${n}`, kind: 'tool', payload: { n } });
    host.hostcall('ext-b', { callId: 'hc-0', kind: 'tool', payload: { n: 0 } });
    await finished.promise;
    expect(seen).toEqual(['hc-1', 'hc-2', 'hc-3', 'hc-4', 'b:hc-0']);
    expect(host.scheduler.size).toBe(0);
    expect(warnings).toEqual([
      {
        message: 'Delivery to extension `ext-a` threw: Error: listener broke',
        details: { extensionId: 'ext-a', callId: 'hc-0', seq: 0, error: new Error('listener broke') },
      },
    ]);
  });

  it('counts outcomes for an extension with no delivery connected', () => {
    const { host, scheduler } = manualHost({ handlers: { tool: () => 1 } });
    const connection = host.connect('ext-b', () => {});
    connection.disconnect();
    host.hostcall('ext-b', { callId: 'hc-1', kind: 'tool', payload: {} });
    host.hostcall('ext-c', { callId: 'hc-2', kind: 'tool', payload: {} });
    scheduler.runUntilIdle();
    expect(host.stats.undeliverable).toBe(2);
  });

  it('validates its options', () => {
    expect(() => createHost({ logger: 5 as never })).toThrow(
      'Expected the `logger` option to be a logger, got `5` (number)',
    );
    expect(() => createHost({ producers: { exec: 'no' as never } })).toThrow('`producers.exec`');
    expect(() => createHost({ handler: {} } as never)).toThrow(
      'Unknown `handler` option (known options: scheduler, logger, producers, handlers)',
    );
    const host: Host = createHost({ scheduler: createMacrotaskScheduler({ driver: 'manual' }) });
    expect(host.activeStreams()).toEqual([]);
  });
});
