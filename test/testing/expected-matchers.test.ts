import { deepStrictEqual } from 'node:assert/strict';
import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type ChunkEvent, ExecError, exec, SequenceError } from '../../src/index.js';
import { ChunkTestScheduler, chunkMatcher, exitEvent } from '../../src/testing/index.js';
import { chunk } from '../support/chunk.js';
import { newTestScheduler } from '../support/test-scheduler.js';

describe('asymmetric matchers in expected values', () => {
  it('match chunk contents and metadata inside an expectation', () => {
    newTestScheduler().run(({ expectObservable, fakeExec }) => {
      const make = fakeExec({ stdout: '-a|', exit: { code: 0 } });
      expectObservable(exec('make', [], { port: make, reject: false })).toBe('-a(x|)', {
        a: expect.objectContaining({ kind: 'stdout', content: expect.stringMatching(/^a/) }),
        x: {
          sequence: 1,
          kind: 'exit',
          content: expect.objectContaining({ exitCode: 0, signal: null, durationMs: expect.any(Number) }),
          isFinal: true,
        },
      });
    });
  });

  it('match an error notification by its class, the actual error kept as it is', () => {
    newTestScheduler().run(({ expectObservable, fakeExec }) => {
      const make = fakeExec({ exit: { code: 3 } });
      expectObservable(exec('make', [], { port: make })).toBe('#', undefined, expect.any(ExecError));
    });
  });

  it('still fail when they do not match, with the diff of the values', () => {
    expect(() =>
      newTestScheduler().run(({ expectObservable, fakeExec }) => {
        const make = fakeExec({ stdout: '-a|', exit: { code: 0 } });
        expectObservable(exec('make', [], { port: make, reject: false })).toBe('-a(x|)', {
          a: expect.objectContaining({ content: 'b\n' }),
          x: expect.anything(),
        });
      }),
    ).toThrow(/to deeply equal/);
    expect(() =>
      newTestScheduler().run(({ expectObservable, fakeExec }) => {
        expectObservable(exec('make', [], { port: fakeExec({ exit: { code: 3 } }) })).toBe(
          '#',
          undefined,
          expect.any(SequenceError),
        );
      }),
    ).toThrow(/to deeply equal/);
  });
});

describe('exitEvent', () => {
  it("matches an exec's final exit event by code and signal, whatever else its result holds", () => {
    newTestScheduler().run(({ expectObservable, fakeExec }) => {
      const ok = fakeExec({ stdout: '-a|', exit: { code: 0 } });
      expectObservable(exec('make', [], { port: ok })).toBe('-a(x|)', {
        a: chunk(0, 'a\n'),
        x: exitEvent({ exitCode: 0, signal: null }),
      });
      const crash = fakeExec({ stdout: '--a', exit: { signal: 'SIGSEGV' } });
      expectObservable(exec('make', [], { port: crash, reject: false })).toBe('--(ax|)', {
        a: chunk(0, 'a\n'),
        x: exitEvent({ sequence: 1, exitCode: null, signal: 'SIGSEGV', stdout: 'a\n' }),
      });
    });
  });

  it('works under any assertion (node:assert here), and fails on a field that differs', () => {
    const scheduler = () => new ChunkTestScheduler(deepStrictEqual);
    scheduler().run(({ expectObservable, fakeExec }) => {
      const make = fakeExec({ stdout: '-a|', exit: { code: 2 } });
      expectObservable(exec('make', [], { port: make, reject: false })).toBe('-a(x|)', {
        a: chunk(0, 'a\n'),
        x: exitEvent({ exitCode: 2 }),
      });
    });
    expect(() =>
      scheduler().run(({ expectObservable, fakeExec }) => {
        const make = fakeExec({ stdout: '-a|', exit: { code: 2 } });
        expectObservable(exec('make', [], { port: make, reject: false })).toBe('-a(x|)', {
          a: chunk(0, 'a\n'),
          x: exitEvent({ exitCode: 0 }),
        });
      }),
    ).toThrow(/exitCode: 0/);
  });

  it('is an asymmetric matcher for toEqual, and a clear one in a failure', () => {
    const event = {
      sequence: 4,
      kind: 'exit',
      content: { exitCode: 1, signal: null, timedOut: false, stdout: 'x', durationMs: 12 },
      isFinal: true,
    };
    expect(event).toEqual(exitEvent({ exitCode: 1, signal: null }));
    expect(event).not.toEqual(exitEvent({ exitCode: 0 }));
    expect(event).not.toEqual(exitEvent({ sequence: 3 }));
    expect({ ...event, kind: 'stdout' }).not.toEqual(exitEvent({ exitCode: 1 }));
    expect({ ...event, isFinal: false }).not.toEqual(exitEvent({ exitCode: 1 }));
    expect(() => expect(event).toEqual(exitEvent({ exitCode: 0 }))).toThrow(/to deeply equal/);
    expect(exitEvent({ exitCode: 0 }).toAsymmetricMatcher()).toBe('exitEvent({"exitCode":0})');
    expect(() => chunkMatcher()([event], [exitEvent({ exitCode: 1, timedOut: false })])).not.toThrow();
  });

  it('shows that the exit result carries the raw output, and that maxOutputBytes: 0 drops it', () => {
    newTestScheduler().run(({ expectObservable, fakeExec }) => {
      const secret = { s: 'token=hunter2\n' };
      const redact = map((event: ChunkEvent<unknown>) =>
        event.kind === 'stdout' ? { ...event, content: '[redacted]\n' } : event,
      );
      const keeps = fakeExec({ stdout: '-s|', values: secret, exit: { code: 0 } });
      expectObservable(exec('login', [], { port: keeps }).pipe(redact)).toBe('-a(x|)', {
        a: chunk(0, '[redacted]\n'),
        x: exitEvent({ stdout: 'token=hunter2\n' }),
      });
      const drops = fakeExec({ stdout: '-s|', values: secret, exit: { code: 0 } });
      expectObservable(exec('login', [], { port: drops, maxOutputBytes: 0 }).pipe(redact)).toBe('-a(x|)', {
        a: chunk(0, '[redacted]\n'),
        x: exitEvent({ exitCode: 0, stdout: '', truncated: true }),
      });
    });
  });

  it('refuses a field it does not know', () => {
    expect(() => exitEvent({ code: 0 } as never)).toThrow(
      'Expected the `code` option to be one of `sequence`, `exitCode`, `signal`',
    );
  });
});
