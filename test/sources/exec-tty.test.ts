import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, Subject, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { ttyCommand } from '../../src/sources/exec/tty.js';
import { type ExecEvent, type ExecOptions, exec } from '../../src/sources/exec.js';
import { fixture, pollUntil, processesNamed, processesWithTag } from '../support/processes.js';
import { needs } from '../support/system-tools.js';

const texts = (events: readonly ExecEvent[]) =>
  events.flatMap((event) => (event.kind === 'exit' ? [] : [event.content as string]));
const run = (file: string, args: string[], options: ExecOptions = {}) =>
  lastValueFrom(exec(file, args, { tty: true, ...options }).pipe(toArray()));
const tag = (name: string) => `sluice-tty-${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

describe.skipIf(!needs('linux', 'script', 'python3'))('exec with `tty`: the child runs on a terminal', () => {
  it('delivers each line of grep, sed and perl as it is written, not at their exit', async () => {
    // Each program writes its own clock (ms) three times, 400 ms apart; on a pipe all three would come at exit,
    // the first two 800 and 400 ms late. Each line must arrive before the next is written: well
    // within that gap, the bound holds on a loaded machine (unloaded, lines arrive in tens of ms).
    const clock = 'for i in 1 2 3; do date +%s%3N; sleep 0.4; done';
    const commands: [string, string[]][] = [
      ['sh', ['-c', `${clock} | grep .`]],
      ['sh', ['-c', `${clock} | sed s/^/t/`]],
      ['perl', ['-MTime::HiRes=time', '-e', 'for (1..3) { printf "%d\\n", time * 1000; sleep 0.4 }']],
    ];
    for (const [file, args] of commands) {
      const delays: number[] = [];
      for await (const event of toAsyncIterable(exec(file, args, { tty: true }))) {
        if (event.kind === 'exit') expect(event.content.exitCode).toBe(0);
        else delays.push(Date.now() - Number(event.content.replace(/^t/, '')));
      }
      expect(delays, `${file} ${args.join(' ')}`).toHaveLength(3);
      for (const delay of delays) expect(delay, `${file} ${args.join(' ')}: ${delays}`).toBeLessThan(350);
    }
  });

  it('is a terminal to the child, with `\\r\\n`-ended lines as one stream of kind stdout', async () => {
    const events = await run('python3', [
      '-c',
      'import sys; print(sys.stdout.isatty(), sys.stdin.isatty()); print("to stderr", file=sys.stderr)',
    ]);
    expect(events.map((event) => [event.kind, event.content])).toEqual([
      ['stdout', 'True True\r\n'],
      ['stdout', 'to stderr\r\n'],
      ['exit', expect.objectContaining({ exitCode: 0 })],
    ]);
  });

  it('has the requested window size, and the new one after a resize (SIGWINCH)', async () => {
    const resize = new Subject<{ columns: number; rows: number }>();
    const lines: string[] = [];
    // `stty` may raise SIGWINCH twice, the first seeing the new width only (docs/terminal.md): the
    // program reports the size at each, and ends at the new one.
    const script = 'tput cols; tput lines; trap "tput cols; tput lines" WINCH; while :; do sleep 0.05; done';
    const events = exec('sh', ['-c', script], { tty: { columns: 123, rows: 45, resize }, timeoutMs: 20_000 });
    for await (const event of toAsyncIterable(events)) {
      if (event.kind === 'exit') break;
      lines.push(event.content);
      if (lines.length === 2) resize.next({ columns: 77, rows: 11 });
      if (lines.length >= 4 && lines.length % 2 === 0 && lines.at(-1) === '11\r\n') break;
    }
    expect(lines.slice(0, 2)).toEqual(['123\r\n', '45\r\n']);
    expect(lines.slice(-2)).toEqual(['77\r\n', '11\r\n']);
  });

  it('writes colours where a program asks for a terminal (ls --color=auto)', async () => {
    const events = await run('ls', ['--color=auto', '/']);
    expect(texts(events).join('')).toMatch(/\x1b\[[0-9;]*m/);
    const piped = await lastValueFrom(exec('ls', ['--color=auto', '/']).pipe(toArray()));
    expect(texts(piped).join('')).not.toMatch(/\x1b\[/);
  });

  it('types `input` into the terminal, and its end is an end-of-file', async () => {
    const events = await run('sh', ['-c', 'read answer; echo "got $answer"; cat; echo done'], {
      input: 'yes\nmore\n',
    });
    // The terminal echoes what is typed, as it would for a person.
    expect(texts(events).filter((line) => line.startsWith('got') || line === 'done\r\n')).toEqual([
      'got yes\r\n',
      'done\r\n',
    ]);
    expect(events.at(-1)?.content).toMatchObject({ exitCode: 0 });
  });

  it("reports the command's exit code, and a death by signal n as 128 + n", async () => {
    const failed = await run('sh', ['-c', 'exit 7'], { reject: false });
    expect(failed.at(-1)?.content).toMatchObject({ exitCode: 7 });
    const killed = await run('sh', ['-c', 'kill -KILL $$'], { reject: false });
    expect(killed.at(-1)?.content).toMatchObject({ exitCode: 137 });
  });

  it('loses nothing at a fast exit: 200 runs writing 1 MB each, every byte, the exit event last', async () => {
    const bytes = 1_000_000;
    const once = async () => {
      const events = await lastValueFrom(
        exec('sh', ['-c', `head -c ${bytes} /dev/zero | tr '\\0' a`], { tty: true, lines: false }).pipe(
          toArray(),
        ),
      );
      const last = events.at(-1);
      expect(last?.kind).toBe('exit');
      expect(events.filter((event) => event.kind === 'exit')).toHaveLength(1);
      return texts(events).reduce((sum, text) => sum + text.length, 0);
    };
    const counts: number[] = [];
    for (let batch = 0; batch < 25; batch += 1) {
      counts.push(...(await Promise.all(Array.from({ length: 8 }, once))));
    }
    expect(counts.filter((count) => count !== bytes)).toEqual([]);
    expect(counts).toHaveLength(200);
  }, 300_000); // 200 MB through a terminal: under a minute quiet, more on a loaded machine

  it('fails with TTY_UNAVAILABLE, naming what to install, where there is no `script`', () => {
    const size = { columns: 80, rows: 24 };
    expect(() => ttyCommand('ls', [], size, {}, '/nonexistent')).toThrow(
      expect.objectContaining({ code: 'TTY_UNAVAILABLE', message: expect.stringContaining('util-linux') }),
    );
  });
});

describe.skipIf(!needs('linux', 'script', 'python3'))(
  'exec with `tty`: every way a run ends kills its session',
  () => {
    // The command runs in a session of its own, outside `script`'s process group: these runs use
    // `containment: 'group'`, where no cgroup catches it.
    const spread = (name: string) =>
      `bash -c 'trap "" HUP TERM; exec -a ${name} sleep 1000' & (exec -a ${name} sleep 1000) & sleep 0.2; echo ready; wait`;

    for (const containment of ['group', 'auto'] as const) {
      it(`cancel (${containment}): no process of the session is left, even one ignoring SIGHUP and SIGTERM`, async () => {
        const name = tag('cancel');
        const events = exec('bash', ['-c', spread(name)], { tty: true, containment, forceKillAfterMs: 300 });
        for await (const event of toAsyncIterable(events)) {
          expect(event.content).toBe('ready\r\n');
          expect(await pollUntil(() => processesNamed(name).length === 2, 10_000)).toBe(true);
          break;
        }
        expect(await pollUntil(() => processesWithTag(name).length === 0, 10_000)).toBe(true);
      });
    }

    it('timeout: the session is killed and the result says so', async () => {
      const name = tag('timeout');
      const events = await run('bash', ['-c', spread(name)], {
        containment: 'group',
        timeoutMs: 500,
        forceKillAfterMs: 300,
        reject: false,
      });
      expect(events.at(-1)?.content).toMatchObject({ timedOut: true });
      // `script` is not signalled while the session lives, so it writes nothing of its own.
      expect(texts(events)).toEqual(['ready\r\n']);
      expect(await pollUntil(() => processesWithTag(name).length === 0, 10_000)).toBe(true);
    });

    it('a run that ends by itself takes what is left of its session along', async () => {
      const name = tag('leftover');
      const events = await run('bash', ['-c', `(exec -a ${name} sleep 1000) & sleep 0.2; echo started`], {
        containment: 'group',
        forceKillAfterMs: 300,
      });
      expect(texts(events)).toEqual(['started\r\n']);
      expect(await pollUntil(() => processesWithTag(name).length === 0, 10_000)).toBe(true);
    });
  },
);

describe.skipIf(!needs('linux', 'script', 'python3'))('exec with `tty`: backpressure', () => {
  const directory = mkdtempSync(join(tmpdir(), 'sluice-tty-flood-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('a slow consumer holds a flooding child back; after `break` nothing of the run is left', async () => {
    const progress = join(directory, 'progress');
    const name = tag('flood');
    const events = exec(
      'bash',
      ['-c', `exec -a ${name} python3 "$0" "$1" 128`, fixture('adapter-counter.py'), progress],
      {
        tty: true,
      },
    );
    const written = () => Number(readFileSync(progress, 'utf8').trim().split(/\s+/)[1] ?? 0);
    const before = process.memoryUsage().rss;
    let consumed = 0;
    let maxLead = 0;
    let started = Number.POSITIVE_INFINITY;
    for await (const event of toAsyncIterable(events, { bufferSize: 16 })) {
      if (event.kind === 'exit') break;
      expect(Number.parseInt(event.content.slice(0, 9), 10)).toBe(consumed + 1);
      consumed += 1;
      if (consumed === 1) started = Date.now(); // the clock starts once python3 has
      if (consumed % 25 === 0) maxLead = Math.max(maxLead, written() - consumed);
      if (Date.now() - started > 2000) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(consumed).toBeGreaterThan(100);
    expect(maxLead).toBeGreaterThan(256); // the child filled every buffer on its way and blocked
    // The pipe from `script` and the terminal's own buffers (docs/backpressure.md, "On a terminal").
    expect(maxLead).toBeLessThan((512 * 1024) / 128);
    expect(process.memoryUsage().rss - before).toBeLessThan(30 * 1024 * 1024);
    expect(await pollUntil(() => processesWithTag(name).length === 0, 10_000)).toBe(true);
  });
});
