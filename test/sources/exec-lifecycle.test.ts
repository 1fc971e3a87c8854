import { of, take } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ExecError, type ExecEvent, type ExecResult, exec, Valve } from '../../src/index.js';
import { fakePort } from './exec/fake-port.js';

const line = (sequence: number, kind: 'stdout' | 'stderr', content: string): ExecEvent => ({
  sequence,
  kind,
  content,
  isFinal: false,
});
const result = (overrides: Partial<ExecResult>): ExecResult => ({
  command: 'build --all',
  pid: 4242,
  exitCode: 0,
  signal: null,
  timedOut: false,
  truncated: false,
  durationMs: 0,
  stdout: '',
  stderr: '',
  rlimitHit: null,
  ...overrides,
});
const exit = (sequence: number, content: ExecResult): ExecEvent => ({
  sequence,
  kind: 'exit',
  content,
  isFinal: true,
});
const ok = { exitCode: 0, signal: null };

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('exec lifecycle (fake port, virtual time)', () => {
  it('happy: lines of both pipes in arrival order, then the exit event once both pipes ended', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stdout = cold('-a--b---|', { a: 'one\n', b: 'two\n' });
      const stderr = cold('--c|', { c: 'err\n' });
      const exited = cold('-----(x|)', { x: ok });
      const { port } = fakePort({ stdout, stderr, exit: exited }, scheduler);
      const expected = '    -ac-b---(e|)';
      expectObservable(exec('build', ['--all'], { port, scheduler })).toBe(expected, {
        a: line(0, 'stdout', 'one\n'),
        c: line(1, 'stderr', 'err\n'),
        b: line(2, 'stdout', 'two\n'),
        e: exit(3, result({ durationMs: 5, stdout: 'one\ntwo\n', stderr: 'err\n' })),
      });
      expectSubscriptions(stdout.subscriptions).toBe('^-------!');
      expectSubscriptions(stderr.subscriptions).toBe('^--!');
    });
  });

  it('zero output: exactly one final event', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const { port } = fakePort({ exit: cold('---(x|)', { x: ok }) }, scheduler);
      expectObservable(exec('build', ['--all'], { port, scheduler })).toBe('---(e|)', {
        e: exit(0, result({ durationMs: 3 })),
      });
    });
  });

  it('error after output: EXEC_FAILED only after every line (a last line without newline comes at the pipe end)', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const stdout = cold('-a---b|', { a: 'one\n', b: 'last' });
      const { port } = fakePort(
        { stdout, exit: cold('--(x|)', { x: { exitCode: 2, signal: null } }) },
        scheduler,
      );
      const failed = result({ exitCode: 2, durationMs: 2, stdout: 'one\nlast' });
      expectObservable(exec('build', ['--all'], { port, scheduler })).toBe(
        '-a----(b#)',
        { a: line(0, 'stdout', 'one\n'), b: line(1, 'stdout', 'last') },
        new ExecError(failed),
      );
      const resolved = fakePort(
        { stdout, exit: cold('--(x|)', { x: { exitCode: 2, signal: null } }) },
        scheduler,
      );
      expectObservable(exec('build', ['--all'], { port: resolved.port, scheduler, reject: false })).toBe(
        '-a----(be|)',
        { a: line(0, 'stdout', 'one\n'), b: line(1, 'stdout', 'last'), e: exit(2, failed) },
      );
    });
  });

  it('timeout with partial output: kills the group, keeps the lines, errors with TIMEOUT', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const stdout = cold('-a-b------c-|', { a: 'one\n', b: 'two\n', c: 'never\n' });
      const { port, log } = fakePort({ stdout }, scheduler);
      const timedOut = result({
        timedOut: true,
        signal: 'SIGTERM',
        exitCode: null,
        durationMs: 5,
        stdout: 'one\ntwo\n',
      });
      expectObservable(exec('build', ['--all'], { port, scheduler, timeoutMs: 5 })).toBe(
        '-a-b-#',
        { a: line(0, 'stdout', 'one\n'), b: line(1, 'stdout', 'two\n') },
        new ExecError(timedOut, { timeoutMs: 5 }),
      );
      expectSubscriptions(stdout.subscriptions).toBe('^----!');
      flush();
      expect(log.kills).toEqual([{ at: 5, signal: 'SIGTERM' }]);
    });
  });

  it('cancel: unsubscribing kills the group, then SIGKILLs it after forceKillAfterMs if it survived', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions, flush, time }) => {
      const stdout = cold('-a-b-c-d|', { a: 'a\n', b: 'b\n', c: 'c\n', d: 'd\n' });
      const { port, log } = fakePort({ stdout, ignores: ['SIGTERM'] }, scheduler);
      const force = time('          ----|');
      const unsubscribe = '         ----!';
      expectObservable(
        exec('build', ['--all'], { port, scheduler, forceKillAfterMs: force }),
        unsubscribe,
      ).toBe('-a-b', { a: line(0, 'stdout', 'a\n'), b: line(1, 'stdout', 'b\n') });
      expectSubscriptions(stdout.subscriptions).toBe('^---!');
      flush();
      expect(log.kills).toEqual([
        { at: 4, signal: 'SIGTERM' },
        { at: 8, signal: 'SIGKILL' },
      ]);
    });
  });

  it('cancel: no SIGKILL when the group died of killSignal', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, flush }) => {
      const { port, log } = fakePort({ stdout: cold('-a-----|', { a: 'a\n' }) }, scheduler);
      expectObservable(
        exec('x', [], { port, scheduler, forceKillAfterMs: 3, killSignal: 'SIGINT' }),
        '--!',
      ).toBe('-a', { a: line(0, 'stdout', 'a\n') });
      flush();
      expect(log.kills).toEqual([{ at: 2, signal: 'SIGINT' }]);
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable, flush }) => {
      const many = Array.from({ length: 1000 }, (_, index) => `${index}\n`);
      const { port, log } = fakePort({ stdout: of(...many) }, scheduler);
      expectObservable(exec('x', [], { port, scheduler }).pipe(take(2))).toBe('(ab|)', {
        a: line(0, 'stdout', '0\n'),
        b: line(1, 'stdout', '1\n'),
      });
      flush();
      expect(log.kills).toEqual([{ at: 0, signal: 'SIGTERM' }]);
    });
  });

  it('holds lines and the exit event back while demand is paused, and delivers them on resume', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const valve = new Valve();
      const stdout = cold('-a-b-|', { a: 'one\n', b: 'two\n' });
      const { port, log } = fakePort({ stdout, exit: cold('------(x|)', { x: ok }) }, scheduler);
      scheduler.schedule(() => valve.pause(), 2);
      scheduler.schedule(() => valve.resume(), 8);
      expectObservable(exec('build', ['--all'], { port, scheduler, demand: valve })).toBe('-a------(be|)', {
        a: line(0, 'stdout', 'one\n'),
        b: line(1, 'stdout', 'two\n'),
        e: exit(2, result({ durationMs: 6, stdout: 'one\ntwo\n' })),
      });
      scheduler.schedule(() => expect(log.pauses).toBeGreaterThan(0), 9);
    });
  });

  it('writes an Observable input one value at a time and then closes stdin', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, flush }) => {
      const input = cold('-a-b|', { a: 'x\n', b: 'y\n' });
      const { port, log } = fakePort({ exit: cold('------(x|)', { x: ok }) }, scheduler);
      expectObservable(exec('cat', [], { port, scheduler, input })).toBe('------(e|)', {
        e: exit(0, { ...result({ durationMs: 6 }), command: 'cat' }),
      });
      flush();
      expect(log.input).toEqual(['x\n', 'y\n']);
      expect(log.inputEnded).toBe(true);
      expect(log.spawned[0]?.hasInput).toBe(true);
    });
  });
});
