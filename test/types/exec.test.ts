import type { Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ChunkEvent,
  type ExecEvent,
  type ExecExitEvent,
  type ExecLineEvent,
  type ExecResult,
  exec,
  type HttpBodyEvent,
  type HttpEndEvent,
  type HttpEvent,
  type HttpResponseEvent,
  http,
} from '../../src/index.js';
import { typeOnly } from '../support/type-only.js';

// Type-level tests: checked by `tsc` (tsconfig includes test/); nothing in them runs (typeOnly).
describe('exec: overloads', () => {
  it('gives text chunks by default, and with encoding: utf8', () =>
    typeOnly(() => {
      expectTypeOf(exec('ls')).toEqualTypeOf<Observable<ExecEvent<string>>>();
      expectTypeOf(exec('ls', ['-l'], { cwd: '/' })).toEqualTypeOf<Observable<ExecEvent<string>>>();
      expectTypeOf(exec('ls', [], { encoding: 'utf8' })).toEqualTypeOf<Observable<ExecEvent<string>>>();
    }));

  it("gives Uint8Array chunks with encoding: 'buffer'", () =>
    typeOnly(() => {
      expectTypeOf(exec('cat', ['image.png'], { encoding: 'buffer' })).toEqualTypeOf<
        Observable<ExecEvent<Uint8Array>>
      >();
      expectTypeOf(exec('cat', undefined, { encoding: 'buffer', lines: false })).toEqualTypeOf<
        Observable<ExecEvent<Uint8Array>>
      >();
    }));

  it('refuses what is not an option or not its type', () =>
    typeOnly(() => {
      // @ts-expect-error: an unknown encoding
      exec('ls', [], { encoding: 'latin1' });
      // @ts-expect-error: args are strings
      exec('ls', [1]);
      // @ts-expect-error: timeoutMs is a number
      exec('ls', [], { timeoutMs: '5s' });
    }));
});

describe('the chunk union', () => {
  it('narrows by kind: lines carry their content, the exit event its ExecResult', () =>
    typeOnly(() => {
      const event = {} as ExecEvent;
      if (event.kind === 'exit') {
        expectTypeOf(event).toEqualTypeOf<ExecExitEvent>();
        expectTypeOf(event.content).toEqualTypeOf<ExecResult>();
        expectTypeOf(event.content.exitCode).toEqualTypeOf<number | null>();
        expectTypeOf(event.isFinal).toEqualTypeOf<true>();
      } else {
        expectTypeOf(event).toEqualTypeOf<ExecLineEvent<string>>();
        expectTypeOf(event.kind).toEqualTypeOf<'stdout' | 'stderr'>();
        expectTypeOf(event.content).toEqualTypeOf<string>();
        expectTypeOf(event.isFinal).toEqualTypeOf<false>();
      }
      const bytes = {} as ExecEvent<Uint8Array>;
      if (bytes.kind !== 'exit') expectTypeOf(bytes.content).toEqualTypeOf<Uint8Array>();
    }));

  it('narrows by isFinal too', () =>
    typeOnly(() => {
      const event = {} as ExecEvent;
      if (event.isFinal) expectTypeOf(event).toEqualTypeOf<ExecExitEvent>();
      else expectTypeOf(event).toEqualTypeOf<ExecLineEvent<string>>();
    }));

  it('every event is a ChunkEvent, with readonly fields', () =>
    typeOnly(() => {
      expectTypeOf<ExecEvent>().toExtend<ChunkEvent<unknown>>();
      expectTypeOf<HttpEvent>().toExtend<ChunkEvent<unknown>>();
      expectTypeOf<ChunkEvent<string>['content']>().toEqualTypeOf<string | null>();
      const event = {} as ChunkEvent<string>;
      // @ts-expect-error: readonly
      event.sequence = 2;
    }));
});

describe('http: overloads', () => {
  it('gives bytes by default and text lines with lines: true', () =>
    typeOnly(() => {
      expectTypeOf(http('https://example.com')).toEqualTypeOf<Observable<HttpEvent<Uint8Array>>>();
      expectTypeOf(http('https://example.com', undefined, { lines: true })).toEqualTypeOf<
        Observable<HttpEvent<string>>
      >();
    }));

  it('narrows by kind: response, body, end', () =>
    typeOnly(() => {
      const event = {} as HttpEvent<string>;
      if (event.kind === 'response') expectTypeOf(event).toEqualTypeOf<HttpResponseEvent>();
      else if (event.kind === 'body') expectTypeOf(event).toEqualTypeOf<HttpBodyEvent<string>>();
      else expectTypeOf(event).toEqualTypeOf<HttpEndEvent>();
    }));
});
