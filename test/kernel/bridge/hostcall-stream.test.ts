import { lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Valve } from '../../../src/core/demand.js';
import { isSequenceError } from '../../../src/core/errors/sequence-error.js';
import { isSluiceError } from '../../../src/core/errors/sluice-error.js';
import { subscribeWithDemand } from '../../../src/core/subscriber-chain.js';
import { HostcallStream } from '../../../src/kernel/bridge/hostcall-stream.js';
import { failure, streamChunk, success } from '../../../src/kernel/protocol/hostcall-outcome.js';

function fakeLink(prefetch = 4) {
  const calls: string[] = [];
  const link = {
    prefetch,
    pull: (count: number) => calls.push(`pull ${count}`),
    cancel: () => calls.push('cancel'),
    settled: () => calls.push('settled'),
  };
  return { calls, stream: new HostcallStream('hc-1', link) };
}

describe('HostcallStream as an AsyncIterator', () => {
  it('keeps a window of `prefetch` chunks asked for, asking again once half arrived; a final null chunk ends iteration', async () => {
    const { calls, stream } = fakeLink(4);
    const first = stream.next();
    expect(calls).toEqual(['pull 4']); // the first next() asks for the whole window
    stream.deliver(streamChunk(0, 'line 1\n', false));
    expect(await first).toEqual({ value: 'line 1\n', done: false });
    stream.deliver(streamChunk(1, 'line 2\n', false));
    expect(calls).toEqual(['pull 4']); // 2 still asked for: more than half the window
    expect(await stream.next()).toEqual({ value: 'line 2\n', done: false }); // from what is here
    expect(calls).toEqual(['pull 4', 'pull 2']); // 2 asked for, none here: back up to 4
    stream.deliver(streamChunk(2, 'line 3\n', false));
    stream.deliver(streamChunk(3, null, true));
    expect(await stream.next()).toEqual({ value: 'line 3\n', done: false });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(calls).toEqual(['pull 4', 'pull 2', 'settled']);
  });

  it('a consumer that stops calling next() stops asking: never more than `prefetch` chunks ahead', async () => {
    const { calls, stream } = fakeLink(4);
    const first = stream.next();
    for (let n = 0; n < 4; n += 1) stream.deliver(streamChunk(n, n, false));
    await first;
    // Three chunks wait here: more than half the window, so nothing more is asked for.
    expect(calls).toEqual(['pull 4']);
    expect(await stream.next()).toEqual({ value: 1, done: false });
    expect(calls).toEqual(['pull 4', 'pull 2']); // two wait, none asked for: top up to 4
  });

  it('a chunk handed straight to a waiting next() tops the window up at once, before the next next()', async () => {
    const { calls, stream } = fakeLink(4);
    const first = stream.next();
    stream.deliver(streamChunk(0, 'a', false));
    expect(await first).toEqual({ value: 'a', done: false });
    const second = stream.next(); // nothing here: it waits, 3 still asked for
    expect(calls).toEqual(['pull 4']);
    stream.deliver(streamChunk(1, 'b', false)); // to the waiting next(): 2 asked for, none here
    expect(calls).toEqual(['pull 4', 'pull 2']);
    expect(await second).toEqual({ value: 'b', done: false });
  });

  it('yields a final non-null chunk, then ends', async () => {
    const { stream } = fakeLink();
    stream.deliver(streamChunk(0, 'a', false));
    stream.deliver(streamChunk(1, 'done\n', true));
    const values: unknown[] = [];
    for await (const value of stream) values.push(value);
    expect(values).toEqual(['a', 'done\n']);
  });

  it('throws an Error outcome from next() after the chunks delivered before it, then ends', async () => {
    const { stream } = fakeLink();
    stream.deliver(streamChunk(0, 'partial', false));
    stream.deliver(failure('EXEC_FAILED', 'exit code 1'));
    expect(await stream.next()).toEqual({ value: 'partial', done: false });
    const error = await stream.next().catch((caught: unknown) => caught);
    expect(isSluiceError(error, 'EXEC_FAILED')).toBe(true);
    expect((error as Error).message).toBe('exit code 1');
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('rejects a waiting next() when the error arrives', async () => {
    const { stream } = fakeLink();
    const waiting = stream.next();
    stream.deliver(failure('TIMEOUT', 'timed out'));
    await expect(waiting).rejects.toMatchObject({ code: 'TIMEOUT', message: 'timed out' });
  });

  it('return() (break) cancels once, settles a waiting next(), and ignores what still arrives', async () => {
    const { calls, stream } = fakeLink();
    stream.deliver(streamChunk(0, 'a', false));
    for await (const value of stream) {
      expect(value).toBe('a');
      break;
    }
    expect(calls).toEqual(['pull 4', 'cancel']); // the loop's next() asked for a window
    stream.deliver(streamChunk(1, 'b', false));
    stream.deliver(streamChunk(2, null, true));
    expect(await stream.next()).toEqual({ value: undefined, done: true });
    expect(calls).toEqual(['pull 4', 'cancel', 'settled']);

    const other = fakeLink();
    const waiting = other.stream.next();
    await other.stream.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(other.calls).toEqual(['pull 4', 'cancel']);
  });

  it('a Success outcome (a kind that ignored stream: true) is the one, final chunk', async () => {
    const { stream } = fakeLink();
    stream.deliver(success({ ok: 1 }));
    const values: unknown[] = [];
    for await (const value of stream) values.push(value);
    expect(values).toEqual([{ ok: 1 }]);
  });

  it.each([
    ['start', [streamChunk(1, 'x', false)]],
    ['gap', [streamChunk(0, 'x', false), streamChunk(2, 'y', false)]],
    ['duplicate', [streamChunk(0, 'x', false), streamChunk(0, 'x', false)]],
    ['order', [streamChunk(0, 'x', false), streamChunk(1, 'y', false), streamChunk(0, 'z', false)]],
  ] as const)('fails with STREAM_SEQUENCE (%s) and cancels the stream', async (rule, outcomes) => {
    const { calls, stream } = fakeLink();
    for (const outcome of outcomes) stream.deliver(outcome);
    let caught: unknown;
    try {
      for await (const _ of stream) {
        // drain
      }
    } catch (error) {
      caught = error;
    }
    expect(isSequenceError(caught)).toBe(true);
    expect((caught as { info: { rule: string } }).info.rule).toBe(rule);
    expect(calls).toContain('cancel');
  });

  it('serves next() calls made without awaiting in call order, each with its own chunk', async () => {
    const { calls, stream } = fakeLink();
    const first = stream.next();
    const second = stream.next();
    const third = stream.next();
    expect(calls).toEqual(['pull 4']); // one window covers the three
    stream.deliver(streamChunk(0, 'a', false));
    stream.deliver(streamChunk(1, 'b', false));
    expect(await first).toEqual({ value: 'a', done: false });
    expect(await second).toEqual({ value: 'b', done: false });
    const fourth = stream.next();
    expect(calls).toEqual(['pull 4', 'pull 2']);
    stream.deliver(streamChunk(2, 'c', true));
    expect(await Promise.all([third, fourth])).toEqual([
      { value: 'c', done: false },
      { value: undefined, done: true },
    ]);
  });

  it('with several next() waiting, an error rejects the first and ends the others; return() ends them all', async () => {
    const { stream } = fakeLink();
    const first = stream.next();
    const second = stream.next();
    stream.deliver(failure('EXEC_FAILED', 'exit code 1'));
    await expect(first).rejects.toMatchObject({ code: 'EXEC_FAILED' });
    expect(await second).toEqual({ value: undefined, done: true });

    const other = fakeLink();
    const waiting = [other.stream.next(), other.stream.next()];
    await other.stream.return();
    expect(await Promise.all(waiting)).toEqual([
      { value: undefined, done: true },
      { value: undefined, done: true },
    ]);
    expect(other.calls).toEqual(['pull 4', 'cancel']);
  });

  it('several next() calls waiting when a final null chunk arrives: each one gets done', async () => {
    const { stream } = fakeLink();
    const waiting = [stream.next(), stream.next(), stream.next()];
    stream.deliver(streamChunk(0, null, true));
    expect(await Promise.all(waiting)).toEqual([
      { value: undefined, done: true },
      { value: undefined, done: true },
      { value: undefined, done: true },
    ]);
  });

  it('after a break, what the host still sends asks for nothing more, and a late sequence error does not cancel again', async () => {
    const { calls, stream } = fakeLink(4);
    stream.deliver(streamChunk(0, 'a', false));
    for await (const _value of stream) break;
    for (let n = 1; n <= 3; n += 1) stream.deliver(streamChunk(n, `line ${n}`, false));
    stream.deliver(streamChunk(9, 'out of order', false));
    expect(calls).toEqual(['pull 4', 'cancel', 'settled']);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('return() before any next() makes the iterator the consumer: a subscriber after it fails', async () => {
    const { calls, stream } = fakeLink();
    await stream.return();
    stream.deliver(streamChunk(0, 'sent before the cancel arrived', false));
    let failed: unknown;
    const seen: unknown[] = [];
    stream.subscribe({
      next: (event) => seen.push(event.content),
      error: (error: unknown) => (failed = error),
    });
    expect(isSluiceError(failed, 'STREAM_CONSUMED')).toBe(true);
    expect(seen).toEqual([]);
    expect(calls).toEqual(['cancel']);
  });

  it('what arrived before the first next() is served first, then the ending', async () => {
    const { stream } = fakeLink();
    stream.deliver(streamChunk(0, 'a', false));
    stream.deliver(failure('HTTP_STATUS', '404 Not Found'));
    expect(await stream.next()).toEqual({ value: 'a', done: false });
    await expect(stream.next()).rejects.toMatchObject({ code: 'HTTP_STATUS' });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});

describe('HostcallStream as an Observable', () => {
  it('a plain subscriber makes it flow: chunk events, then complete', async () => {
    const { calls, stream } = fakeLink();
    stream.deliver(streamChunk(0, 'early', false));
    const all = lastValueFrom(stream.pipe(toArray()));
    expect(calls).toEqual(['pull Infinity']);
    stream.deliver(streamChunk(1, 'b', false));
    stream.deliver(streamChunk(2, null, true));
    expect(await all).toEqual([
      { sequence: 0, kind: 'chunk', content: 'early', isFinal: false },
      { sequence: 1, kind: 'chunk', content: 'b', isFinal: false },
      { sequence: 2, kind: 'chunk', content: null, isFinal: true },
    ]);
    expect(calls).toEqual(['pull Infinity', 'settled']);
  });

  it('an Error outcome errors the subscriber with a SluiceError carrying the code', async () => {
    const { stream } = fakeLink();
    const all = lastValueFrom(stream);
    stream.deliver(failure('HTTP_STATUS', '404 Not Found'));
    await expect(all).rejects.toMatchObject({ code: 'HTTP_STATUS', message: '404 Not Found' });
  });

  it('stops listening to a synchronous source when unsubscribed: take(2) cancels, the rest is ignored', () => {
    const { calls, stream } = fakeLink();
    const seen: unknown[] = [];
    stream.pipe(take(2)).subscribe((event) => seen.push(event.content));
    for (let n = 0; n < 5; n += 1) stream.deliver(streamChunk(n, n, false));
    stream.deliver(streamChunk(5, null, true));
    expect(seen).toEqual([0, 1]);
    expect(calls).toEqual(['pull Infinity', 'cancel', 'settled']);
  });

  it('with a demand, keeps `prefetch` chunks asked for while not paused', () => {
    const { calls, stream } = fakeLink(3);
    const valve = new Valve();
    const seen: unknown[] = [];
    subscribeWithDemand(stream, valve, { next: (event) => seen.push(event.content) });
    expect(calls).toEqual(['pull 3']);
    stream.deliver(streamChunk(0, 'a', false));
    stream.deliver(streamChunk(1, 'b', false));
    expect(calls).toEqual(['pull 3', 'pull 2']); // one asked for, at most half: top up
    valve.pause();
    stream.deliver(streamChunk(2, 'c', false));
    stream.deliver(streamChunk(3, 'd', false));
    expect(calls).toEqual(['pull 3', 'pull 2']); // paused: the chunks wait, nothing is asked for
    expect(seen).toEqual(['a', 'b']);
    valve.resume();
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(calls).toEqual(['pull 3', 'pull 2', 'pull 2']); // one still asked for: two more
  });

  it('what arrived before the subscriber comes first, then the ending: an error waits behind the chunks', async () => {
    const { calls, stream } = fakeLink();
    stream.deliver(streamChunk(0, 'a', false));
    stream.deliver(streamChunk(1, 'b', false));
    stream.deliver(failure('EXEC_FAILED', 'spawn x ENOENT'));
    const seen: unknown[] = [];
    let failed: unknown;
    stream.subscribe({
      next: (event) => seen.push(event.content),
      error: (error: unknown) => (failed = error),
    });
    expect(seen).toEqual(['a', 'b']);
    expect(failed).toMatchObject({ code: 'EXEC_FAILED', message: 'spawn x ENOENT' });
    expect(calls).toEqual(['settled']); // settled by the error: nothing more is asked for
  });

  it('a subscriber that comes after the stream ended with nothing before it gets the ending at once', async () => {
    const ended = fakeLink().stream;
    ended.deliver(streamChunk(0, null, true));
    expect(await lastValueFrom(ended.pipe(toArray()))).toEqual([
      { sequence: 0, kind: 'chunk', content: null, isFinal: true },
    ]);
    const failed = fakeLink().stream;
    failed.deliver(failure('UNSUPPORTED', 'no handler for `x`'));
    await expect(lastValueFrom(failed)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });

  it('chunks that arrived before a subscriber whose demand is paused wait until it resumes', () => {
    const { stream } = fakeLink(4);
    stream.deliver(streamChunk(0, 'a', false));
    stream.deliver(streamChunk(1, 'b', false));
    const valve = new Valve();
    valve.pause();
    const seen: unknown[] = [];
    subscribeWithDemand(stream, valve, { next: (event) => seen.push(event.content) });
    expect(seen).toEqual([]);
    valve.resume();
    expect(seen).toEqual(['a', 'b']);
  });

  it('take(1) over chunks that arrived before the subscriber: one chunk, one cancel', () => {
    const { calls, stream } = fakeLink();
    for (let n = 0; n < 3; n += 1) stream.deliver(streamChunk(n, n, false));
    const seen: unknown[] = [];
    stream.pipe(take(1)).subscribe((event) => seen.push(event.content));
    expect(seen).toEqual([0]);
    expect(calls).toEqual(['pull Infinity', 'cancel']); // as with a synchronous source, above
  });

  it('has one consumer: a second subscriber or an iterator after a subscriber fails', async () => {
    const { stream } = fakeLink();
    stream.subscribe();
    let second: unknown;
    stream.subscribe({ error: (error: unknown) => (second = error) });
    expect(isSluiceError(second, 'STREAM_CONSUMED')).toBe(true);
    const iterated = await stream.next().catch((error: unknown) => error);
    expect(iterated).toMatchObject({
      code: 'STREAM_CONSUMED',
      message: 'The stream of `hc-1` already has a consumer (an iterator cannot be another one)',
    });
    const viaIterator = fakeLink().stream;
    void viaIterator.next();
    let late: unknown;
    viaIterator.subscribe({ error: (error: unknown) => (late = error) });
    expect(isSluiceError(late, 'STREAM_CONSUMED')).toBe(true);
  });
});
