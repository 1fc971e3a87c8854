import { of, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ExecError, type ExecResult, exec } from '../../src/index.js';
import { chunk } from '../support/chunk.js';
import { execResult } from '../support/exec-result.js';
import { newTestScheduler } from '../support/test-scheduler.js';

const line = (sequence: number, kind: 'stdout' | 'stderr', content: string) =>
  chunk(sequence, content, false, { kind });
const exit = (sequence: number, content: ExecResult) => chunk(sequence, content, true, { kind: 'exit' });

describe('exec lifecycle (fakeExec, virtual time)', () => {
  it('happy: lines of both pipes in arrival order, then the exit event once both pipes ended', () => {
    newTestScheduler().run(({ expectObservable, fakeExec }) => {
      const port = fakeExec({
        stdout: '-a--b---|',
        stderr: '--c|',
        values: { a: 'one\n', b: 'two\n', c: 'err\n' },
        exit: { code: 0, at: 5 },
      });
      const expected = '-ac-b---(e|)';
      expectObservable(exec('build', ['--all'], { port })).toBe(expected, {
        a: line(0, 'stdout', 'one\n'),
        c: line(1, 'stderr', 'err\n'),
        b: line(2, 'stdout', 'two\n'),
        e: exit(3, execResult('build --all', { durationMs: 5, stdout: 'one\ntwo\n', stderr: 'err\n' })),
      });
    });
  });

  it('zero output: exactly one final event', () => {
    newTestScheduler().run(({ expectObservable, fakeExec }) => {
      const port = fakeExec({ exit: { code: 0, at: 3 } });
      expectObservable(exec('build', ['--all'], { port })).toBe('---(e|)', {
        e: exit(0, execResult('build --all', { durationMs: 3 })),
      });
    });
  });

  it('error after output: EXEC_FAILED only after every line (a last line without newline comes at the pipe end)', () => {
    newTestScheduler().run(({ expectObservable, fakeExec }) => {
      const script = { stdout: '-a---b|', values: { a: 'one\n', b: 'last' }, exit: { code: 2, at: 2 } };
      const failed = execResult('build --all', { exitCode: 2, durationMs: 2, stdout: 'one\nlast' });
      expectObservable(exec('build', ['--all'], { port: fakeExec(script) })).toBe(
        '-a----(b#)',
        { a: line(0, 'stdout', 'one\n'), b: line(1, 'stdout', 'last') },
        new ExecError(failed),
      );
      expectObservable(exec('build', ['--all'], { port: fakeExec(script), reject: false })).toBe(
        '-a----(be|)',
        {
          a: line(0, 'stdout', 'one\n'),
          b: line(1, 'stdout', 'last'),
          e: exit(2, failed),
        },
      );
    });
  });

  it('timeout with partial output: kills the group, keeps the lines, errors with TIMEOUT', () => {
    const scheduler = newTestScheduler();
    scheduler.run(({ expectObservable, fakeExec, flush }) => {
      const port = fakeExec({ stdout: '-a-b------c-|', values: { a: 'one\n', b: 'two\n', c: 'never\n' } });
      const timedOut = execResult('build --all', {
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
      flush();
      expect(port.kills).toEqual([{ at: 5, signal: 'SIGTERM' }]);
      expect(port.running).toBe(0);
    });
  });

  it('cancel: unsubscribing kills the group, then SIGKILLs it after forceKillAfterMs if it survived', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush, time }) => {
      const port = fakeExec({ stdout: '-a-b-c-d|', ignores: ['SIGTERM'] });
      const force = time('          ----|');
      const unsubscribe = '         ----!';
      expectObservable(exec('build', ['--all'], { port, forceKillAfterMs: force }), unsubscribe).toBe(
        '-a-b',
        {
          a: line(0, 'stdout', 'a\n'),
          b: line(1, 'stdout', 'b\n'),
        },
      );
      flush();
      expect(port.kills).toEqual([
        { at: 4, signal: 'SIGTERM' },
        { at: 8, signal: 'SIGKILL' },
      ]);
      expect(port.running).toBe(0);
    });
  });

  it('cancel: no SIGKILL when the group died of killSignal', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const port = fakeExec({ stdout: '-a-----|' });
      expectObservable(exec('x', [], { port, forceKillAfterMs: 3, killSignal: 'SIGINT' }), '--!').toBe('-a', {
        a: line(0, 'stdout', 'a\n'),
      });
      flush();
      expect(port.kills).toEqual([{ at: 2, signal: 'SIGINT' }]);
    });
  });

  it('stops listening to a synchronous source when unsubscribed', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const port = fakeExec({ stdout: '(abcdefghij)' });
      expectObservable(exec('x', [], { port }).pipe(take(2))).toBe('(ab|)', {
        a: line(0, 'stdout', 'a\n'),
        b: line(1, 'stdout', 'b\n'),
      });
      flush();
      expect(port.kills).toEqual([{ at: 0, signal: 'SIGTERM' }]);
      expect(port.records.filter((record) => record.type === 'destroy')).toHaveLength(1);
    });
  });

  it('holds lines and the exit event back while demand is paused, and delivers them on resume', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, demand }) => {
      const port = fakeExec({
        stdout: '-a-b-|',
        values: { a: 'one\n', b: 'two\n' },
        exit: { code: 0, at: 6 },
        pipeCapacity: 1,
      });
      const consumer = demand('--p-----r');
      expectObservable(exec('build', ['--all'], { port, demand: consumer })).toBe('-a------(be|)', {
        a: line(0, 'stdout', 'one\n'),
        b: line(1, 'stdout', 'two\n'),
        e: exit(2, execResult('build --all', { durationMs: 6, stdout: 'one\ntwo\n' })),
      });
    });
  });

  it('writes an Observable input one value at a time and then closes stdin', () => {
    newTestScheduler().run(({ cold, expectObservable, fakeExec, flush }) => {
      const input = cold('-a-b|', { a: 'x\n', b: 'y\n' });
      const port = fakeExec({ exit: { code: 0, at: 6 } });
      expectObservable(exec('cat', [], { port, input })).toBe('------(e|)', {
        e: exit(0, { ...execResult('build --all', { durationMs: 6 }), command: 'cat' }),
      });
      flush();
      expect(port.input).toBe('x\ny\n');
      expect(port.inputEnded).toBe(true);
      expect(port.spawns[0]?.hasInput).toBe(true);
      expect(port.records.filter((record) => record.type === 'input').map((record) => record.at)).toEqual([
        1, 3,
      ]);
    });
  });

  it('a synchronous Observable input is written at once', () => {
    newTestScheduler().run(({ expectObservable, fakeExec, flush }) => {
      const port = fakeExec({ exit: { code: 0, at: 1 } });
      expectObservable(exec('cat', [], { port, input: of('x\n', 'y\n') })).toBe('-(e|)', {
        e: exit(0, { ...execResult('build --all', { durationMs: 1 }), command: 'cat' }),
      });
      flush();
      expect(port.input).toBe('x\ny\n');
    });
  });
});
