import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type EventSourceLike, fromEventSource } from '../../src/browser/from-event-source.js';
import { isSequenceError } from '../../src/core/errors/sequence-error.js';
import { isSluiceError } from '../../src/core/errors/sluice-error.js';
import { encodeChunkEvent, encodeGap } from '../../src/runs/sse/run-frames.js';
import { SseParser } from '../../src/runs/sse/sse-parser.js';
import { chunk } from '../support/chunk.js';
import { newTestScheduler } from '../support/test-scheduler.js';

/** A scripted EventSource: the test feeds it server text and network events. */
class FakeEventSource implements EventSourceLike {
  static opened: FakeEventSource[] = [];
  readyState = 0;
  closed = false;
  readonly listeners = new Map<string, Array<(event: any) => void>>();
  readonly #parser = new SseParser();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: any) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  /** Delivers server text as the browser would: only to listeners of the message's type. */
  receive(text: string): void {
    this.readyState = 1;
    for (const message of this.#parser.push(text)) {
      for (const listener of this.listeners.get(message.event) ?? []) {
        listener({ type: message.event, data: message.data, lastEventId: message.lastEventId });
      }
    }
  }
  fail(readyState: 0 | 2): void {
    this.readyState = readyState;
    for (const listener of this.listeners.get('error') ?? []) listener({ type: 'error' });
  }
}

const line = (sequence: number, kind = 'stdout', isFinal = false) =>
  encodeChunkEvent(chunk(sequence, isFinal ? null : `line ${sequence}`, isFinal, { kind }));

describe('fromEventSource', () => {
  it('emits sequenced events, completes on the final one and closes the EventSource', () => {
    FakeEventSource.opened = [];
    const seen: unknown[] = [];
    let completed = false;
    fromEventSource('/runs/1/events', { EventSource: FakeEventSource }).subscribe({
      next: (event) => seen.push(event.sequence),
      complete: () => {
        completed = true;
      },
    });
    const [source] = FakeEventSource.opened;
    source?.receive(`retry: 100\n\n${line(0)}: heartbeat\n\n${line(1, 'stderr')}`);
    expect(seen).toEqual([0, 1]);
    source?.receive(line(2, 'end', true));
    expect(seen).toEqual([0, 1, 2]);
    expect(completed).toBe(true);
    expect(source?.closed).toBe(true);
  });

  it('lets the EventSource reconnect by itself, and reopens with ?lastEventId= when it gave up (virtual time)', () => {
    newTestScheduler().run(({ expectObservable, cold }) => {
      FakeEventSource.opened = [];
      const events = fromEventSource('/runs/1/events?x=1', {
        EventSource: FakeEventSource,
        retryMs: 5,
        maxRetries: 2,
      });
      const script = cold('-a-b-c------d|', {
        a: () => FakeEventSource.opened[0]?.receive(line(0)),
        b: () => FakeEventSource.opened[0]?.fail(0), // network drop: the browser reconnects itself
        c: () => FakeEventSource.opened[0]?.fail(2), // the browser gave up: we reopen after 5 frames
        d: () => {
          expect(FakeEventSource.opened.map((source) => source.url)).toEqual([
            '/runs/1/events?x=1',
            '/runs/1/events?x=1&lastEventId=0',
          ]);
          FakeEventSource.opened[1]?.receive(line(1) + line(2, 'exit', true));
        },
      });
      script.subscribe((action) => action());
      expectObservable(events.pipe(map((event) => event.sequence))).toBe('-a----------(bc|)', {
        a: 0,
        b: 1,
        c: 2,
      });
    });
  });

  it('turns a gap event into a SequenceError, and a skipped kind into a gap error', () => {
    FakeEventSource.opened = [];
    let error: unknown;
    fromEventSource('/e', { EventSource: FakeEventSource }).subscribe({
      error: (caught) => (error = caught),
    });
    FakeEventSource.opened[0]?.receive(line(0) + encodeGap({ from: 1, to: 9 }));
    expect(isSequenceError(error)).toBe(true);
    expect((error as Error).message).toContain('events 1..9');
    expect(FakeEventSource.opened[0]?.closed).toBe(true);

    let skipped: unknown;
    fromEventSource('/e', { EventSource: FakeEventSource }).subscribe({
      error: (caught) => (skipped = caught),
    });
    FakeEventSource.opened[1]?.receive(line(0) + line(1, 'progress') + line(2));
    expect((skipped as Error).message).toBe('Sequence gap: expected 1, received 2 (1 is missing)');
  });

  it('errors after maxRetries drops without an event, and closes on unsubscribe', () => {
    FakeEventSource.opened = [];
    let error: unknown;
    fromEventSource('/e', { EventSource: FakeEventSource, maxRetries: 1 }).subscribe({
      error: (caught) => (error = caught),
    });
    FakeEventSource.opened[0]?.fail(0);
    expect(error).toBeUndefined();
    FakeEventSource.opened[0]?.fail(0);
    expect(isSluiceError(error, 'HTTP_FAILED')).toBe(true);
    expect(FakeEventSource.opened[0]?.closed).toBe(true);

    const subscription = fromEventSource('/e', { EventSource: FakeEventSource }).subscribe();
    subscription.unsubscribe();
    expect(FakeEventSource.opened[1]?.closed).toBe(true);
  });

  it('follows from after a known event with `after` (?lastEventId=), and a gap after it is an error', () => {
    FakeEventSource.opened = [];
    const seen: number[] = [];
    let failure: unknown;
    fromEventSource('/runs/1/events', { EventSource: FakeEventSource, after: 9 }).subscribe({
      next: (event) => seen.push(event.sequence),
      error: (error) => (failure = error),
    });
    const [source] = FakeEventSource.opened;
    expect(source?.url).toBe('/runs/1/events?lastEventId=9');
    source?.receive(line(10));
    source?.receive(encodeGap({ from: 11, to: 20 }));
    expect(seen).toEqual([10]);
    expect(isSequenceError(failure) && failure.info).toEqual({ rule: 'gap', expected: 11, received: 21 });
  });

  it('validates its options before connecting', () => {
    FakeEventSource.opened = [];
    expect(() => fromEventSource('/e', { EventSource: FakeEventSource, maxRetries: -1 })).toThrow(
      'Expected the `maxRetries` option to be a non-negative integer, got `-1` (number)',
    );
    expect(() => fromEventSource('/e', { EventSource: FakeEventSource, kinds: [''] })).toThrow(
      /`kinds` option/,
    );
    expect(() => fromEventSource('/e', { EventSource: 'nope' as never })).toThrow(/`EventSource` option/);
    expect(() => fromEventSource(5 as never)).toThrow(/`url` argument/);
    expect(FakeEventSource.opened).toEqual([]);
  });
});
