import type { Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ExecEvent,
  exec,
  fromAsyncIterable,
  fromReadableStream,
  onChunk,
  type SseStream,
  toAsyncIterable,
  toReadableStream,
  toServerSentEvents,
} from '../../src/index.js';
import { typeOnly } from '../support/type-only.js';

// Type-level tests of the adapters' element types (`sluice/adapters`). Checked by `tsc` (tsconfig
// includes test/); nothing in them runs (typeOnly).
describe('adapters', () => {
  const events = exec('make');
  const bytes = exec('cat', ['a.bin'], { encoding: 'buffer' });

  it('toAsyncIterable yields the events of the Observable', () =>
    typeOnly(() => {
      expectTypeOf(toAsyncIterable(events)).toEqualTypeOf<AsyncIterableIterator<ExecEvent>>();
      expectTypeOf(toAsyncIterable(bytes)).toEqualTypeOf<AsyncIterableIterator<ExecEvent<Uint8Array>>>();
    }));

  it('toReadableStream reads them', () =>
    typeOnly(() => {
      expectTypeOf(toReadableStream(events, { highWaterMark: 4 })).toEqualTypeOf<ReadableStream<ExecEvent>>();
    }));

  it('onChunk hands each to the callback and resolves with the last', () =>
    typeOnly(() => {
      expectTypeOf(onChunk(events, (event) => expectTypeOf(event).toEqualTypeOf<ExecEvent>())).toEqualTypeOf<
        Promise<ExecEvent | undefined>
      >();
      // @ts-expect-error: the callback takes an event, not a number
      onChunk(events, (event: number) => event);
    }));

  it('fromAsyncIterable and fromReadableStream give Observables of the elements', () =>
    typeOnly(() => {
      async function* numbers() {
        yield 1;
      }
      expectTypeOf(fromAsyncIterable(numbers())).toEqualTypeOf<Observable<number>>();
      expectTypeOf(fromReadableStream(new ReadableStream<string>())).toEqualTypeOf<Observable<string>>();
    }));

  it('toServerSentEvents takes chunk events only', () =>
    typeOnly(() => {
      expectTypeOf(toServerSentEvents(events)).toEqualTypeOf<SseStream>();
      // @ts-expect-error: not chunk events
      toServerSentEvents(fromAsyncIterable(['a']));
    }));
});
