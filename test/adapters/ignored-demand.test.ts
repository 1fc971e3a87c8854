import { type Observable, Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IGNORED_DEMAND_FACTOR } from '../../src/adapters/ignored-demand.js';
import { onChunk } from '../../src/adapters/on-chunk.js';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { toReadableStream } from '../../src/adapters/to-readable-stream.js';
import { isSluiceError, SluiceError } from '../../src/core/errors/sluice-error.js';
import { macrotask } from '../support/macrotask.js';
import { demandCounter } from './demand-counter.js';

// A consumer's buffer grows past 8 × its bufferSize (at least 64) only when its source keeps
// pushing while paused: a Subject here, as fromEvent or any source that ignores demand would.

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);

function recordingLogger() {
  const messages: string[] = [];
  return { messages, logger: { warn: (message: string) => messages.push(message) } };
}

/** What a warning or a DEMAND_IGNORED error says, whichever adapter gives it. */
function expectRemedies(message: string, adapter: string, waiting: number, bufferSize: number) {
  expect(message).toContain(`${adapter} holds ${waiting} values (its bufferSize is ${bufferSize})`);
  expect(message).toContain('docs/backpressure.md');
  expect(message).toContain("bounded({ strategy: 'sliding' })");
  expect(message).toContain("sluice's share()");
}

/** The three adapters, each driven the same way: subscribe, let `push` flood it, consume it all. */
interface Adapter {
  readonly name: string;
  /** The option that sizes the buffer. */
  readonly sizeOption: 'bufferSize' | 'highWaterMark';
  /** Consumes `source` with `options`; resolves with the values (and the error, if it failed). */
  readonly consume: (
    source: Observable<number>,
    options: Record<string, unknown>,
    flood: () => void,
  ) => Promise<{ values: number[]; error?: unknown }>;
}

const adapters: Adapter[] = [
  {
    name: 'toAsyncIterable',
    sizeOption: 'bufferSize',
    consume: async (source, options, flood) => {
      const iterator = toAsyncIterable(source, options);
      const first = iterator.next(); // subscribes, and waits for a value
      flood();
      const values: number[] = [];
      try {
        for (let result = await first; !result.done; result = await iterator.next())
          values.push(result.value);
      } catch (error) {
        return { values, error };
      }
      return { values };
    },
  },
  {
    name: 'onChunk',
    sizeOption: 'bufferSize',
    consume: async (source, options, flood) => {
      const values: number[] = [];
      const done = onChunk(
        source,
        async (value) => {
          values.push(value);
          await macrotask(); // a slow callback: the queue fills while it works
        },
        options,
      );
      flood();
      try {
        await done;
      } catch (error) {
        return { values, error };
      }
      return { values };
    },
  },
  {
    name: 'toReadableStream',
    sizeOption: 'highWaterMark',
    consume: async (source, options, flood) => {
      const reader = toReadableStream(source, options).getReader();
      await macrotask(); // a stream with highWaterMark > 0 pulls (subscribes) once created
      flood();
      const values: number[] = [];
      try {
        for (let result = await reader.read(); !result.done; result = await reader.read())
          values.push(result.value);
      } catch (error) {
        return { values, error };
      }
      return { values };
    },
  },
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(adapters)('the ignored-demand diagnostic of $name', ({ name, sizeOption, consume }) => {
  it('warns once, through `logger`, when the buffer reaches 8 × its size, naming the remedies; every value is kept', async () => {
    const subject = new Subject<number>();
    const { messages, logger } = recordingLogger();
    const size = 16;
    const threshold = IGNORED_DEMAND_FACTOR * size;
    const flood = () => {
      for (const value of range(0, 1000)) subject.next(value);
      subject.complete();
    };
    const { values, error } = await consume(subject, { [sizeOption]: size, logger }, flood);
    expect(error).toBeUndefined();
    expect(values).toEqual(range(0, 1000));
    expect(messages.length).toBe(1);
    expect(messages[0]).toMatch(/^sluice: /);
    expectRemedies(messages[0] as string, name, threshold, size);
  });

  it('has a floor of 64 values for small buffers', async () => {
    const subject = new Subject<number>();
    const { messages, logger } = recordingLogger();
    const flood = () => {
      for (const value of range(0, 100)) subject.next(value);
      subject.complete();
    };
    await consume(subject, { [sizeOption]: 2, logger }, flood);
    expect(messages.length).toBe(1);
    expectRemedies(messages[0] as string, name, 64, 2);
  });

  it('warns through console.warn by default', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const subject = new Subject<number>();
    const flood = () => {
      for (const value of range(0, 200)) subject.next(value);
      subject.complete();
    };
    await consume(subject, {}, flood);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('docs/backpressure.md');
  });

  it("with onIgnoredDemand: 'ignore' is silent and keeps every value", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const subject = new Subject<number>();
    const { messages, logger } = recordingLogger();
    const flood = () => {
      for (const value of range(0, 1000)) subject.next(value);
      subject.complete();
    };
    const { values } = await consume(subject, { onIgnoredDemand: 'ignore', logger }, flood);
    expect(values).toEqual(range(0, 1000));
    expect(messages).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it("with onIgnoredDemand: 'error' fails with DEMAND_IGNORED and cancels the source", async () => {
    const subject = new Subject<number>();
    const { messages, logger } = recordingLogger();
    const size = 16;
    const threshold = IGNORED_DEMAND_FACTOR * size;
    let observedAfterFailure: boolean | undefined;
    const flood = () => {
      for (const value of range(0, 1000)) {
        if (!subject.observed) break;
        subject.next(value);
      }
      observedAfterFailure = subject.observed;
    };
    const { values, error } = await consume(
      subject,
      { [sizeOption]: size, onIgnoredDemand: 'error', logger },
      flood,
    );
    expect(observedAfterFailure).toBe(false);
    expect(isSluiceError(error, 'DEMAND_IGNORED')).toBe(true);
    expect(error).toBeInstanceOf(SluiceError);
    expect((error as SluiceError).info).toEqual({ adapter: name, waiting: threshold, bufferSize: size });
    expectRemedies((error as Error).message, name, threshold, size);
    expect(messages).toEqual([]);
    // The values buffered before the failure come first: the threshold's worth, and for the pull
    // adapters the one handed out at once to the waiting next() (toReadableStream holds its error
    // until the reader drained its queue: a WHATWG error would discard it).
    expect(values).toEqual(range(0, name === 'toReadableStream' ? threshold : threshold + 1));
  });

  it('rejects a bad onIgnoredDemand or logger with a TypeError naming the option, before subscribing', () => {
    const subject = new Subject<number>();
    const start = (options: Record<string, unknown>) =>
      name === 'onChunk'
        ? onChunk(subject, () => {}, options)
        : name === 'toAsyncIterable'
          ? toAsyncIterable(subject, options)
          : toReadableStream(subject, options);
    expect(() => start({ onIgnoredDemand: 'loud' })).toThrow(
      new TypeError(
        "Expected the `onIgnoredDemand` option to be one of 'warn', 'error', 'ignore', got `loud` (string)",
      ),
    );
    expect(() => start({ logger: {} })).toThrow(
      new TypeError('Expected the `logger` option to be an object with a `warn` method, got `{}` (object)'),
    );
    expect(() => start({ logger: console.warn })).toThrow(/^Expected the `logger` option/);
    expect(() => start({ onIgnoredDemand: 'ignore', logger: 'console' })).toThrow(
      /^Expected the `logger` option/,
    );
    expect(subject.observed).toBe(false);
  });

  it('never fires for a source that honours demand, however much it produces', async () => {
    const { source, stats } = demandCounter({ count: 5000 });
    const { messages, logger } = recordingLogger();
    const { values, error } = await consume(
      source,
      { [sizeOption]: 4, onIgnoredDemand: 'error', logger },
      () => {},
    );
    expect(error).toBeUndefined();
    expect(values).toEqual(range(0, 5000));
    expect(messages).toEqual([]);
    expect(stats.sawDemand).toBe(true);
  });
});
