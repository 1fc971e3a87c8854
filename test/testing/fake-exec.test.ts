import { retry, take, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { bounded, ExecError, exec, SpawnError, stallTimeout } from '../../src/index.js';
import { advanceVirtualTime, fakeExec, withDemand } from '../../src/testing/index.js';
import { execResult } from '../support/exec-result.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const lines = (letters: string) => Object.fromEntries([...letters].map((letter) => [letter, `${letter}\n`]));

describe('fakeExec', () => {
  it('backpressure: a paused consumer blocks the process, whose whole script waits until it resumes', () => {
    newTestScheduler().run(({ expectChunks, demand, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e|' });
      const consumer = demand('   ---p------r');
      const expected = '          -a--------b-c-d-e(x|)';
      const output = withDemand(consumer, exec('make', [], { port: fake }));
      const exit = execResult('make', { durationMs: 17, stdout: 'a\nb\nc\nd\ne\n' });
      expectChunks(output).toBe(
        expected,
        { ...lines('abcde'), x: exit },
        { kind: 'stdout', kinds: { x: 'exit' }, final: 'x' },
      );
      flush();
      expect(fake.pauses).toEqual([3]);
      expect(fake.resumes).toEqual([10]);
    });
  });

  it('backpressure: with pipeCapacity the process writes on until its pipes are full', () => {
    newTestScheduler().run(({ expectChunks, demand, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-----e|', pipeCapacity: 2 });
      const consumer = demand('   --p---------r');
      // b and c fit in the pipes; d blocks the process at 7 until the resume at 12.
      const expected = '          -a----------(bcd)-e(x|)';
      const output = withDemand(consumer, exec('make', [], { port: fake }));
      const exit = execResult('make', { durationMs: 19, stdout: 'a\nb\nc\nd\ne\n' });
      expectChunks(output).toBe(
        expected,
        { ...lines('abcde'), x: exit },
        { kind: 'stdout', kinds: { x: 'exit' }, final: 'x' },
      );
      flush();
      expect(fake.pauses).toEqual([2]);
      expect(fake.resumes).toEqual([12]);
    });
  });

  it('backpressure through toAsyncIterable: a consumer that stops pulling pauses the process', async () => {
    const clock = new VirtualTimeScheduler();
    const fake = fakeExec({ stdout: '-a-b-c-d-e|' }, { scheduler: clock });
    const lines = toAsyncIterable(exec('make', [], { port: fake, scheduler: clock }), { bufferSize: 2 });
    const iterator = lines[Symbol.asyncIterator]();
    const first = iterator.next();
    advanceVirtualTime(clock, 1);
    expect((await first).value?.content).toBe('a\n');
    // b (3) and c (5) fill the buffer of 2: the pipes stop being read, d blocks the process.
    advanceVirtualTime(clock, 20);
    expect(fake.pauses).toEqual([5]);
    expect(fake.records.filter((record) => record.type === 'exit')).toEqual([]);
    expect((await iterator.next()).value?.content).toBe('b\n');
    // Taking b made room: the process is read again at once, writes d, and is paused again.
    expect(fake.resumes).toEqual([21]);
    expect(fake.pauses).toEqual([5, 21]);
    const rest: unknown[] = [];
    for (;;) {
      advanceVirtualTime(clock, 10);
      const next = await iterator.next();
      if (next.done) break;
      rest.push(next.value.kind === 'exit' ? `exit ${next.value.content.exitCode}` : next.value.content);
    }
    expect(rest).toEqual(['c\n', 'd\n', 'e\n', 'exit 0']);
    expect(fake.running).toBe(0);
  });

  it('stall: stallTimeout fires exactly `ms` after the consumer paused, and the process is killed then', () => {
    const warnings: string[] = [];
    newTestScheduler().run(({ expectChunks, demand, fakeExec, flush, time }) => {
      const fake = fakeExec({ stdout: '-a-b-c-d-e-f-g-h', exit: 'hang' });
      const consumer = demand('   ----p');
      const ms = time('               -----|');
      const expected = '          -a-b-----|';
      const logger = { warn: (message: string) => warnings.push(message) };
      const output = withDemand(
        consumer,
        exec('make', [], { port: fake }).pipe(stallTimeout({ ms, logger })),
      );
      expectChunks(output).toBe(expected, lines('ab'), {
        kind: 'stdout',
        end: { metadata: { reason: 'stalled' } },
      });
      flush();
      expect(fake.pauses).toEqual([4]);
      expect(fake.kills).toEqual([{ at: 9, signal: 'SIGTERM' }]);
      expect(fake.running).toBe(0);
    });
    expect(warnings).toEqual(['Stream stalled: consumer did not pull for 0.005s']);
  });

  it('cancel: unsubscribing kills with the configured signal, then SIGKILL if the process survived it', () => {
    newTestScheduler().run(({ expectChunks, fakeExec, flush }) => {
      const stubborn = fakeExec({ stdout: '-a-b-c-d|', ignores: ['SIGINT'] });
      const options = { port: stubborn, killSignal: 'SIGINT' as const, forceKillAfterMs: 100 };
      expectChunks(exec('make', [], options), '---!').toBe('-a-', lines('a'), { kind: 'stdout' });
      const polite = fakeExec({ stdout: '-a-b-c-d|' }, { pid: 7 });
      expectChunks(exec('make', [], { port: polite, killSignal: 'SIGHUP' }).pipe(take(2))).toBe(
        '-a-(b|)',
        lines('ab'),
        { kind: 'stdout', end: false },
      );
      flush();
      expect(stubborn.kills).toEqual([
        { at: 3, signal: 'SIGINT' },
        { at: 103, signal: 'SIGKILL' },
      ]);
      expect(polite.kills).toEqual([{ at: 3, signal: 'SIGHUP' }]);
      expect(stubborn.running + polite.running).toBe(0);
    });
  });

  it('error after buffered chunks: the failure comes only after every buffered line', () => {
    newTestScheduler().run(({ expectObservable, demand, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a-b-c|', exit: { code: 1 } });
      const consumer = demand('   --p-----r');
      const expected = '          -a------(bc#)';
      const output = withDemand(consumer, exec('make', [], { port: fake }).pipe(bounded({ bufferSize: 8 })));
      const failed = execResult('make', { exitCode: 1, durationMs: 6, stdout: 'a\nb\nc\n' });
      expectObservable(output).toBe(
        expected,
        {
          a: { sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false },
          b: { sequence: 1, kind: 'stdout', content: 'b\n', isFinal: false },
          c: { sequence: 2, kind: 'stdout', content: 'c\n', isFinal: false },
        },
        new ExecError(failed),
      );
      flush();
      // The bounded buffer had room: the process itself was never paused.
      expect(fake.pauses).toEqual([]);
    });
  });

  it('hangs until the timeout kills it; a held line and a signal death are reported as a real child would', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const hanging = fakeExec({ stdout: '-a', exit: 'hang' });
      const timedOut = execResult('make', {
        timedOut: true,
        exitCode: null,
        signal: 'SIGTERM',
        durationMs: 4,
        stdout: 'a\n',
      });
      expectObservable(exec('make', [], { port: hanging, timeoutMs: 4 })).toBe(
        '-a--#',
        { a: { sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false } },
        new ExecError(timedOut, { timeoutMs: 4 }),
      );
      const crashing = fakeExec({
        stderr: '--e|',
        values: { e: 'Segmentation fault\n' },
        exit: { signal: 'SIGSEGV' },
      });
      const crashed = execResult('make', {
        exitCode: null,
        signal: 'SIGSEGV',
        durationMs: 3,
        stderr: 'Segmentation fault\n',
      });
      expectObservable(exec('make', [], { port: crashing, reject: false })).toBe('--e(x|)', {
        e: { sequence: 0, kind: 'stderr', content: 'Segmentation fault\n', isFinal: false },
        x: { sequence: 1, kind: 'exit', content: crashed, isFinal: true },
      });
      flush();
      expect(hanging.kills).toEqual([{ at: 4, signal: 'SIGTERM' }]);
      expect(crashing.kills).toEqual([]);
    });
  });

  it('records every spawn, with a pid of its own, and what was written to stdin', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const fake = fakeExec({ stdout: '-a|', exit: { code: 3 } });
      const retried = exec('make', ['build'], { port: fake, cwd: '/src', input: 'go\n' }).pipe(retry(1));
      expectObservable(retried).toBe(
        '-a-a#',
        { a: { sequence: 0, kind: 'stdout', content: 'a\n', isFinal: false } },
        new ExecError({
          ...execResult('make', { exitCode: 3, durationMs: 2, stdout: 'a\n' }),
          command: 'make build',
          pid: 4243,
        }),
      );
      flush();
      expect(
        fake.spawns.map((request) => [request.file, request.args, request.cwd, request.hasInput]),
      ).toEqual([
        ['make', ['build'], '/src', true],
        ['make', ['build'], '/src', true],
      ]);
      expect(
        fake.records.filter((record) => record.type === 'spawn').map((record) => [record.at, record.pid]),
      ).toEqual([
        [0, 4242],
        [2, 4243],
      ]);
      expect(fake.input).toBe('go\ngo\n');
      expect(fake.inputEnded).toBe(true);
    });
  });

  it('fails the spawn with the scripted errno', () => {
    newTestScheduler().run(({ expectObservable, fakeExec }) => {
      const fake = fakeExec({ spawnError: 'ENOENT' });
      expectObservable(exec('nope', [], { port: fake })).toBe(
        '#',
        undefined,
        new SpawnError({ errno: 'ENOENT', file: 'nope', cwd: undefined }),
      );
    });
  });

  it('validates the script before anything runs, naming the field', () => {
    expect(() => fakeExec({ pipeCapacity: -1 })).toThrow(
      new TypeError('Expected the `pipeCapacity` option to be a non-negative integer, got `-1` (number)'),
    );
    expect(() => fakeExec({ stdout: '-a-#' })).toThrow(
      'Expected the `stdout` option to be a diagram without `#`',
    );
    expect(() => fakeExec({ stderr: '-a-!' })).toThrow('Expected the `stderr` option to be a marble diagram');
    expect(() => fakeExec({ exit: { code: 300 } })).toThrow('Expected the `exit` option to be `{ code }`');
    expect(() => fakeExec({ ignores: ['SIGKILL'] })).toThrow(
      'Expected the `ignores` option to be an array of signal names other than SIGKILL, got `["SIGKILL"]` (array)',
    );
    expect(() => fakeExec({ stdot: '-a' } as never)).toThrow('Unknown `stdot` option (known options: stdout');
    expect(() => fakeExec({}, { pid: 0 })).toThrow(
      'Expected the `pid` option to be a positive integer, got `0` (number)',
    );
  });
});
