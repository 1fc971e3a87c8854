import { chmodSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, lastValueFrom, type Observable, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  type ExecEvent,
  type ExecExitEvent,
  type ExecLineEvent,
  exec,
  isExecError,
  isSpawnError,
} from '../../src/index.js';
import { checkSequence } from '../../src/operators/check-sequence.js';
import { findChild, fixture, groupGone, liveGroupMembers } from '../support/processes.js';
import { needs } from '../support/system-tools.js';

interface Run {
  lines: ExecLineEvent[];
  exit: ExecExitEvent | undefined;
  error: unknown;
}

function collect(source: Observable<ExecEvent>, onLine?: (event: ExecLineEvent) => void): Promise<Run> {
  return new Promise((resolve) => {
    const run: Run = { lines: [], exit: undefined, error: undefined };
    source.pipe(checkSequence()).subscribe({
      next: (event) => {
        expect(run.exit).toBeUndefined();
        if (event.kind === 'exit') run.exit = event as ExecExitEvent;
        else {
          run.lines.push(event as ExecLineEvent);
          onLine?.(event as ExecLineEvent);
        }
      },
      error: (error: unknown) => {
        run.error = error;
        resolve(run);
      },
      complete: () => resolve(run),
    });
  });
}

const texts = (run: Run, kind?: string) =>
  run.lines.filter((event) => kind === undefined || event.kind === kind).map((event) => event.content);
const hex = (text: string) => Buffer.from(text).toString('hex');

describe('exec', () => {
  it('is cold: nothing runs until subscribe, and each subscription is its own run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-exec-'));
    const source = exec('sh', ['-c', 'echo run >> runs.txt; cat runs.txt'], { cwd: dir });
    const first = await collect(source);
    const second = await collect(source);
    expect(texts(first)).toEqual(['run\n']);
    expect(texts(second)).toEqual(['run\n', 'run\n']);
    expect(first.exit?.content.pid).not.toBe(second.exit?.content.pid);
  });

  it.skipIf(!needs('python3'))(
    'emits stdout and stderr lines in arrival order, then the exit event with the result',
    async () => {
      const acks = new Subject<string>();
      const run = await collect(exec('python3', [fixture('exec-interleave.py'), '6'], { input: acks }), () =>
        acks.next('ack\n'),
      );
      expect(run.error).toBeUndefined();
      expect(run.lines.map((event) => [event.kind, event.content])).toEqual([
        ['stdout', 'out 0\n'],
        ['stderr', 'err 1\n'],
        ['stdout', 'out 2\n'],
        ['stderr', 'err 3\n'],
        ['stdout', 'out 4\n'],
        ['stderr', 'err 5\n'],
      ]);
      expect(run.lines.map((event) => event.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
      const exit = run.exit as ExecExitEvent;
      expect(exit).toMatchObject({ sequence: 6, kind: 'exit', isFinal: true });
      expect(exit.content).toMatchObject({
        exitCode: 0,
        signal: null,
        timedOut: false,
        truncated: false,
        stdout: 'out 0\nout 2\nout 4\n',
        stderr: 'err 1\nerr 3\nerr 5\n',
        rlimitHit: null,
      });
      expect(exit.content.command).toBe(`python3 ${fixture('exec-interleave.py')} 6`);
      expect(exit.content.pid).toBeGreaterThan(0);
      expect(exit.content.durationMs).toBeGreaterThanOrEqual(0);
    },
  );

  it('emits a last line without a newline', async () => {
    const run = await collect(exec('printf', ['one\\ntwo']));
    expect(texts(run)).toEqual(['one\n', 'two']);
    expect(run.exit?.content.stdout).toBe('one\ntwo');
  });

  it('splits a line longer than maxLineBytes into partial pieces', async () => {
    const line = `${'a'.repeat(25)}\n`;
    const run = await collect(exec('printf', ['%s', `${line}short\n`], { maxLineBytes: 10 }));
    expect(run.lines.map((event) => [event.content, event.metadata?.partial ?? false])).toEqual([
      ['aaaaaaaaaa', true],
      ['aaaaaaaaaa', true],
      ['aaaaa\n', false],
      ['short\n', false],
    ]);
    expect(run.exit?.content.stdout).toBe(`${line}short\n`);
  });

  it('cuts partial pieces at UTF-8 boundaries, never inside a character', async () => {
    const line = `${'€'.repeat(7)}\n`; // 22 bytes
    const run = await collect(exec('printf', ['%s', line], { maxLineBytes: 8 }));
    expect(texts(run)).toEqual(['€€', '€€', '€€', '€\n']);
    expect(run.lines.map((event) => event.metadata?.partial ?? false)).toEqual([true, true, true, false]);
  });

  it.skipIf(!needs('python3'))(
    'decodes invalid UTF-8 to replacement characters instead of throwing',
    async () => {
      const run = await collect(exec('python3', [fixture('exec-bytes.py'), 'ff41c30a6f6b0a']));
      expect(texts(run)).toEqual(['\uFFFDA\uFFFD\n', 'ok\n']);
      expect(run.exit?.content.stdout).toBe('\uFFFDA\uFFFD\nok\n');
    },
  );

  it.skipIf(!needs('python3'))('decodes multi-byte characters split across reads whole', async () => {
    const bytes = hex('€ and 😀\n');
    const lines = await collect(exec('python3', [fixture('exec-bytes.py'), bytes, '1', '8', '10']));
    expect(texts(lines)).toEqual(['€ and 😀\n']);
    const raw = await collect(
      exec('python3', [fixture('exec-bytes.py'), bytes, '1', '8', '10'], { lines: false }),
    );
    expect(texts(raw).join('')).toBe('€ and 😀\n');
    expect(texts(raw).some((text) => text.includes('\uFFFD'))).toBe(false);
  });

  it.skipIf(!needs('python3'))('emits raw reads with lines: false', async () => {
    const run = await collect(
      exec('python3', [fixture('exec-bytes.py'), hex('ab\ncd\nef'), '4'], { lines: false }),
    );
    expect(texts(run).join('')).toBe('ab\ncd\nef');
    expect(run.lines.length).toBeGreaterThanOrEqual(1);
    expect(run.lines.length).toBeLessThanOrEqual(2);
    expect(run.exit?.content.stdout).toBe('ab\ncd\nef');
  });

  it('ends a run with no output with the exit event only', async () => {
    const run = await collect(exec('true'));
    expect(run.lines).toEqual([]);
    expect(run.exit).toMatchObject({ sequence: 0, kind: 'exit', isFinal: true });
    expect(run.exit?.content).toMatchObject({ exitCode: 0, stdout: '', stderr: '', truncated: false });
  });

  it('errors with EXEC_FAILED after all output on a non-zero exit, carrying the result', async () => {
    const run = await collect(exec('sh', ['-c', 'echo one; echo two >&2; echo three; exit 3']));
    expect(run.exit).toBeUndefined();
    expect(texts(run, 'stdout')).toEqual(['one\n', 'three\n']);
    expect(texts(run, 'stderr')).toEqual(['two\n']);
    expect(isExecError(run.error)).toBe(true);
    if (!isExecError(run.error)) return;
    expect(run.error.code).toBe('EXEC_FAILED');
    expect(run.error.name).toBe('ExecError');
    expect(run.error.message).toBe(
      "Command failed with exit code 3: sh -c 'echo one; echo two >&2; echo three; exit 3'",
    );
    expect(run.error.result).toMatchObject({
      exitCode: 3,
      signal: null,
      stdout: 'one\nthree\n',
      stderr: 'two\n',
    });
  });

  it('ends with the exit event on a non-zero exit with reject: false', async () => {
    const run = await collect(exec('sh', ['-c', 'echo one; exit 3'], { reject: false }));
    expect(run.error).toBeUndefined();
    expect(texts(run)).toEqual(['one\n']);
    expect(run.exit?.content).toMatchObject({ exitCode: 3, signal: null, stdout: 'one\n' });
  });

  it('reports a death by signal', async () => {
    const rejected = await collect(exec('sh', ['-c', 'echo before; kill -USR1 $$; echo after']));
    expect(texts(rejected)).toEqual(['before\n']);
    expect(isExecError(rejected.error) && rejected.error.result).toMatchObject({
      exitCode: null,
      signal: 'SIGUSR1',
    });
    expect((rejected.error as Error).message).toMatch(/^Command was killed with SIGUSR1: /);
    const resolved = await collect(exec('sh', ['-c', 'kill -USR1 $$'], { reject: false }));
    expect(resolved.exit?.content).toMatchObject({ exitCode: null, signal: 'SIGUSR1', timedOut: false });
  });

  describe("encoding: 'buffer'", () => {
    const bytesOf = (events: ExecEvent<Uint8Array>[]) =>
      events.filter((event) => event.kind === 'stdout').map((event) => [...(event.content as Uint8Array)]);

    it('passes the bytes through unchanged, invalid UTF-8 included, one event per line', async () => {
      const events = await lastValueFrom(
        exec('printf', ['a\\377\\376\\nb'], { encoding: 'buffer' }).pipe(toArray()),
      );
      expect(bytesOf(events)).toEqual([[0x61, 0xff, 0xfe, 0x0a], [0x62]]);
      expect(events.at(-1)).toMatchObject({
        kind: 'exit',
        content: { exitCode: 0, stdout: 'a\ufffd\ufffd\nb' },
      });
    });

    it('with lines: false, one event per read of the bytes as written', async () => {
      const events = await lastValueFrom(
        exec('printf', ['\\377\\376'], { encoding: 'buffer', lines: false }).pipe(toArray()),
      );
      expect(bytesOf(events).flat()).toEqual([0xff, 0xfe]);
    });
  });

  describe('spawn failures', () => {
    it('errors with SPAWN_FAILED and ENOENT for a missing command', async () => {
      const run = await collect(exec('sluice-no-such-command-xyz', ['a']));
      expect(run.lines).toEqual([]);
      expect(isSpawnError(run.error)).toBe(true);
      expect(run.error).toMatchObject({
        code: 'SPAWN_FAILED',
        info: { errno: 'ENOENT', file: 'sluice-no-such-command-xyz', cwd: undefined },
      });
    });

    it('errors with SPAWN_FAILED and EACCES for a file that is not executable', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sluice-exec-'));
      const file = join(dir, 'not-executable.sh');
      writeFileSync(file, '#!/bin/sh\necho hi\n');
      chmodSync(file, 0o644);
      const run = await collect(exec(file));
      expect(run.error).toMatchObject({ code: 'SPAWN_FAILED', info: { errno: 'EACCES', file } });
    });

    it('errors with SPAWN_FAILED naming the cwd when it does not exist', async () => {
      const cwd = join(tmpdir(), 'sluice-no-such-dir-xyz');
      const run = await collect(exec('true', [], { cwd }));
      expect(run.error).toMatchObject({ code: 'SPAWN_FAILED', info: { errno: 'ENOENT', cwd } });
      expect((run.error as Error).message).toContain(`the \`cwd\` option does not exist: ${cwd}`);
    });
  });

  it('kills on timeout, keeps the output already emitted and errors with TIMEOUT', async () => {
    const run = await collect(exec('sh', ['-c', 'echo started; exec sleep 30'], { timeoutMs: 300 }));
    expect(texts(run)).toEqual(['started\n']);
    expect(run.error).toMatchObject({ code: 'TIMEOUT', name: 'ExecError' });
    expect((run.error as Error).message).toBe(
      "Command timed out after 300 milliseconds: sh -c 'echo started; exec sleep 30'",
    );
    expect(isExecError(run.error) && run.error.result).toMatchObject({
      timedOut: true,
      signal: 'SIGTERM',
      exitCode: null,
      stdout: 'started\n',
    });
    const resolved = await collect(
      exec('sh', ['-c', 'echo started; exec sleep 30'], { timeoutMs: 300, reject: false }),
    );
    expect(resolved.exit?.content).toMatchObject({ timedOut: true, signal: 'SIGTERM', stdout: 'started\n' });
    expect(resolved.exit?.content.durationMs).toBeGreaterThanOrEqual(300);
  });

  describe('maxOutputBytes', () => {
    const output = (bytes: number) => ['-c', `import sys; sys.stdout.write('x' * ${bytes})`];

    it.skipIf(!needs('python3'))('is not truncated at exactly the cap', async () => {
      const run = await collect(exec('python3', output(100), { maxOutputBytes: 100 }));
      expect(run.exit?.content).toMatchObject({ truncated: false, stdout: 'x'.repeat(100) });
    });

    it.skipIf(!needs('python3'))(
      'is truncated one byte over the cap, and the crossing line is still emitted whole',
      async () => {
        const run = await collect(exec('python3', output(101), { maxOutputBytes: 100 }));
        expect(run.exit?.content).toMatchObject({ truncated: true, stdout: 'x'.repeat(100) });
        expect(texts(run).join('')).toBe('x'.repeat(101));
      },
    );

    it('keeps streaming far over the cap while the result stays capped', async () => {
      const run = await collect(exec('seq', ['1', '20000'], { maxOutputBytes: 1000 }));
      expect(run.lines).toHaveLength(20_000);
      const all = texts(run).join('');
      expect(run.exit?.content.truncated).toBe(true);
      expect(run.exit?.content.stdout).toBe(all.slice(0, 1000));
    });

    it('applies to stdout and stderr each, and cuts at a UTF-8 boundary', async () => {
      const run = await collect(
        exec('sh', ['-c', 'printf "ab€€"; printf "abcd" >&2'], { maxOutputBytes: 4, reject: false }),
      );
      expect(run.exit?.content).toMatchObject({ truncated: true, stdout: 'ab', stderr: 'abcd' });
    });
  });

  it('runs in cwd with env, extending process.env unless extendEnv is false', async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'sluice-exec-')));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
    const script = 'pwd; echo "${SLUICE_TEST_VAR:-unset} ${HOME:-nohome}"';
    const extended = await collect(exec('sh', ['-c', script], { cwd, env: { SLUICE_TEST_VAR: 'hello' } }));
    expect(texts(extended)).toEqual([`${cwd}\n`, `hello ${process.env.HOME ?? 'nohome'}\n`]);
    const replaced = await collect(
      exec('/bin/sh', ['-c', script], { cwd, env: { SLUICE_TEST_VAR: 'hello' }, extendEnv: false }),
    );
    expect(texts(replaced)).toEqual([`${cwd}\n`, 'hello nohome\n']);
    process.env.SLUICE_TEST_REMOVED = 'present';
    const removed = await collect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion
      exec('sh', ['-c', 'echo "${SLUICE_TEST_REMOVED:-gone}"'], { env: { SLUICE_TEST_REMOVED: undefined } }),
    );
    delete process.env.SLUICE_TEST_REMOVED;
    expect(texts(removed)).toEqual(['gone\n']);
  });

  describe('input', () => {
    it.skipIf(!needs('python3'))('writes a string to stdin and closes it', async () => {
      const run = await collect(exec('python3', [fixture('exec-echo-stdin.py')], { input: 'a\nb\n' }));
      expect(texts(run)).toEqual(['got a\n', 'got b\n']);
    });

    it('writes bytes to stdin', async () => {
      const run = await collect(exec('cat', [], { input: new TextEncoder().encode('bytes €\n') }));
      expect(texts(run)).toEqual(['bytes €\n']);
    });

    it('writes an Observable to stdin value by value, then closes it', async () => {
      const big = 'y'.repeat(200_000);
      const run = await collect(
        exec('wc', ['-c'], { input: from(['a\n', new TextEncoder().encode('b\n'), big]) }),
      );
      expect(texts(run).map((text) => text.trim())).toEqual([String(4 + big.length)]);
    });

    it('gives stdin /dev/null without input', async () => {
      const run = await collect(exec('cat'));
      expect(run.lines).toEqual([]);
      expect(run.exit?.content.exitCode).toBe(0);
    });

    it.skipIf(!needs('linux', 'ps', 'python3'))(
      'errors with the input error and kills the child when the input Observable errors',
      async () => {
        const input = new Subject<string>();
        let pgid: number | undefined;
        const started = collect(exec('python3', [fixture('exec-echo-stdin.py')], { input }), () => {
          pgid = findChild(fixture('exec-echo-stdin.py')); // the child leads its own group
          input.error(new Error('input broke'));
        });
        input.next('first\n');
        const run = await started;
        expect(texts(run)).toEqual(['got first\n']);
        expect(run.error).toMatchObject({ message: 'input broke' });
        expect(pgid).toBeGreaterThan(0);
        expect(await groupGone(pgid as number, 10_000)).toBe(true);
        expect(liveGroupMembers(pgid as number)).toEqual([]);
      },
    );
  });
});
