import { asyncScheduler, map, Observable, type Subscriber } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../../src/core/chunk.js';
import { sequenced } from '../../../src/operators/sequenced.js';
import { SseParser } from '../../../src/runs/sse/sse-parser.js';
import type { SseSink } from '../../../src/runs/sse/sse-sink.js';
import { toServerSentEvents } from '../../../src/runs/sse/to-server-sent-events.js';
import { newTestScheduler } from '../../support/test-scheduler.js';

/** A sink that turns what a client writes into marble values: `h` heartbeat, `g` gap, else the event's content. */
function sinkTo(subscriber: Subscriber<string>, full: (writes: number) => boolean = () => false): SseSink {
  const parser = new SseParser();
  let writes = 0;
  return {
    write: (text) => {
      writes += 1;
      if (text.startsWith(': heartbeat')) subscriber.next('h');
      for (const message of parser.push(text)) {
        if (message.event === 'gap') subscriber.next(`g${message.data}`);
        else {
          const event = JSON.parse(message.data) as ChunkEvent<string>;
          subscriber.next(event.content ?? `${event.kind}:${event.metadata?.reason ?? ''}`);
        }
      }
      return !full(writes);
    },
    end: () => subscriber.complete(),
    destroy: () => subscriber.error(new Error('dropped')),
    onDrain: () => () => {},
    onClose: () => () => {},
  };
}

describe('toServerSentEvents in virtual time', () => {
  it('writes each event as it arrives and a heartbeat every heartbeatMs, then ends after the final event', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('--a------b|');
      const events = source.pipe(
        map((content) => ({ kind: 'stdout', content })),
        sequenced<string>(),
      );
      const written = new Observable<string>((subscriber) => {
        const stream = toServerSentEvents(events, { heartbeatMs: 4, retryMs: 0, stallTimeoutMs: 0 });
        stream.attach(() => sinkTo(subscriber), undefined);
      });
      expectObservable(written).toBe('--a-h---hb(x|)', { a: 'a', b: 'b', h: 'h', x: 'end:' });
      expectSubscriptions(source.subscriptions).toBe('^---------!');
    });
  });

  it('a client going away does not unsubscribe the producer (detach is not cancel); cancel does', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-------d---e---f---g|');
      const events = source.pipe(
        map((content) => ({ kind: 'stdout', content })),
        sequenced<string>(),
      );
      const stream = toServerSentEvents(events, { heartbeatMs: 0, stallTimeoutMs: 0 });
      const follow = (lastEventId: number | undefined) =>
        new Observable<string>((subscriber) => {
          const result = stream.attach(() => sinkTo(subscriber), lastEventId);
          return () => {
            if (result.status === 200) result.client.end();
          };
        });
      asyncScheduler.schedule(() => stream.cancel(), 19);
      expectObservable(follow(undefined), '^---!').toBe('-a-b');
      expectObservable(follow(0), '-------^').toBe('-------(bc)--d---e-(x|)', {
        b: 'b',
        c: 'c',
        d: 'd',
        e: 'e',
        x: 'end:cancelled',
      });
      expectSubscriptions(source.subscriptions).toBe('^------------------!');
    });
  });

  it('cancel adds its details to the sentinel (who cancelled), keeping the reason', () => {
    const stream = toServerSentEvents(new Observable<ChunkEvent<unknown>>(() => {}), { heartbeatMs: 0 });
    const written: string[] = [];
    stream.attach(
      () => ({
        write: (text) => {
          written.push(text);
          return true;
        },
        end: () => {},
        destroy: () => {},
        onDrain: () => () => {},
        onClose: () => () => {},
      }),
      undefined,
    );
    expect(stream.cancel('cancelled', { by: 'page', reason: 'ignored' })).toBe(true);
    const [message] = new SseParser().push(written.join(''));
    expect(JSON.parse(message?.data ?? '')).toEqual({
      sequence: 0,
      kind: 'end',
      content: null,
      metadata: { by: 'page', reason: 'cancelled' },
      isFinal: true,
    });
  });

  it('a client that falls behind the log gets a gap event and goes on from the oldest retained event', () => {
    newTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c-d-----e|');
      const events = source.pipe(
        map((content) => ({ kind: 'stdout', content })),
        sequenced<string>(),
      );
      const stream = toServerSentEvents(events, {
        heartbeatMs: 0,
        stallTimeoutMs: 0,
        replay: { maxEvents: 2 },
      });
      stream.start();
      const late = new Observable<string>((subscriber) => {
        stream.attach(() => sinkTo(subscriber), undefined);
      });
      expectObservable(late, '--------^').toBe('--------(gcd)e(x|)', {
        g: 'g{"from":0,"to":1}',
        c: 'c',
        d: 'd',
        e: 'e',
        x: 'end:',
      });
    });
  });

  it('drops a client whose sink does not drain within stallTimeoutMs, and stops pausing the producer', () => {
    newTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-d-e-f|');
      const events = source.pipe(
        map((content) => ({ kind: 'stdout', content })),
        sequenced<string>(),
      );
      const stream = toServerSentEvents(events, {
        heartbeatMs: 0,
        stallTimeoutMs: 5,
        replay: { maxEvents: 1 },
      });
      const stuck = new Observable<string>((subscriber) => {
        stream.attach(() => sinkTo(subscriber, (writes) => writes >= 2), undefined);
      });
      const paused: boolean[] = [];
      asyncScheduler.schedule(() => paused.push(stream.paused), 4);
      asyncScheduler.schedule(() => paused.push(stream.paused), 7);
      // write 1 is the `retry:` frame, write 2 (`a`) fills the sink: dropped 5 frames later
      expectObservable(stuck).toBe('-a----#', { a: 'a' }, new Error('dropped'));
      expectSubscriptions(source.subscriptions).toBe('^-----------!');
      asyncScheduler.schedule(() => expect(paused).toEqual([true, false]), 8);
    });
  });

  it('stops listening to a synchronous source when the stream is cancelled', () => {
    let emitted = 0;
    const endless = new Observable<{ kind: string; content: number }>((subscriber) => {
      for (let index = 0; !subscriber.closed && index < 1000; index += 1) {
        emitted += 1;
        subscriber.next({ kind: 'stdout', content: index });
        if (index === 5) stream.cancel();
      }
    });
    const stream = toServerSentEvents(endless.pipe(sequenced<number>()), { heartbeatMs: 0 });
    stream.start();
    expect(emitted).toBe(6);
    expect(stream.log.next).toBe(7);
    expect(stream.ended).toBe(true);
  });

  it('validates options before anything subscribes', () => {
    let subscribed = false;
    const source = new Observable<ChunkEvent<string>>(() => {
      subscribed = true;
    });
    expect(() => toServerSentEvents(source, { heartbeatMs: -1 })).toThrow(
      'Expected the `heartbeatMs` option to be a non-negative integer, got `-1` (number)',
    );
    expect(() => toServerSentEvents(source, { replay: { maxEvents: 0 } })).toThrow(
      'Expected the `replay.maxEvents` option to be a positive integer, got `0` (number)',
    );
    expect(() => toServerSentEvents(source, { scheduler: {} as never })).toThrow(/`scheduler` option/);
    expect(() => toServerSentEvents(source, { heartbeat: 5 } as never)).toThrow(
      'Unknown `heartbeat` option (known options: replay, heartbeatMs, stallTimeoutMs, retryMs, scheduler)',
    );
    expect(() => toServerSentEvents(source, { replay: { max: 5 } } as never)).toThrow(
      'Unknown `replay.max` option',
    );
    expect(() => toServerSentEvents(source, { heartbeatMs: 2 ** 31 })).toThrow(
      'Expected the `heartbeatMs` option to be a non-negative integer up to 2147483647, got `2147483648` (number)',
    );
    expect(() => toServerSentEvents(5 as never)).toThrow(
      'Expected the `source` argument to be an Observable',
    );
    expect(subscribed).toBe(false);
  });
});
