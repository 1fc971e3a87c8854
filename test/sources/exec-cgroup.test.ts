import { randomUUID } from 'node:crypto';
import { execa } from 'execa';
import { firstValueFrom, lastValueFrom, type Observable, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred } from '../../src/core/deferred.js';
import { type ExecError, type ExecEvent, type ExecOptions, type ExecResult, exec } from '../../src/index.js';
import {
  cgroupOf,
  LIMIT_BY_CONTROLLER,
  type LimitController,
  sluiceCgroupsBefore,
  sluiceCgroupsOf,
} from '../support/cgroups.js';
import { fixture, pollUntil, processesNamed, processesWithTag } from '../support/processes.js';
import {
  controllersNotEnabled,
  needs,
  needsCgroup,
  needsControllers,
  requireTool,
  which,
} from '../support/system-tools.js';

/**
 * The ways a descendant leaves its process group, each a shell that starts it and then prints
 * `up` and idles. Every process that matters carries the tag in its command line (`exec -a`).
 */
const ESCAPES = {
  'a setsid daemon': (tag: string) => `setsid bash -c 'exec -a ${tag}-daemon sleep 1000' &`,
  'a double fork (orphaned to PID 1, then setsid)': (tag: string) =>
    `( setsid bash -c 'exec -a ${tag}-double sleep 1000' & ) ; ( ( exec -a ${tag}-orphan sleep 1000 ) & )`,
  'a setsid child that ignores SIGTERM': (tag: string) =>
    `setsid bash -c "trap '' TERM; exec -a ${tag}-stubborn sleep 1000" &`,
} as const;

const script = (leaving: string) => `${leaving}\nsleep 0.2; echo up; while :; do sleep 1; done`;

const tags: string[] = [];
const newTag = () => {
  const tag = `sluice-cg-${randomUUID()}`;
  tags.push(tag);
  return tag;
};
afterEach(() => {
  for (const tag of tags.splice(0)) for (const pid of processesWithTag(tag)) process.kill(pid, 'SIGKILL');
});

/** Nothing of the run is left: no tagged process, no cgroup this test process made. */
async function expectAllGone(tag: string): Promise<void> {
  expect(await pollUntil(() => processesWithTag(tag).length === 0, 10_000), `processes of ${tag}`).toBe(true);
  expect(await pollUntil(() => sluiceCgroupsOf().length === 0, 10_000), sluiceCgroupsOf().join(', ')).toBe(
    true,
  );
}

/** The result of a run that ends by itself. */
async function runToEnd(source: Observable<ExecEvent>): Promise<ExecResult> {
  const events = await firstValueFrom(source.pipe(toArray()));
  return events.at(-1)?.content as ExecResult;
}

/** Runs the script of `escape`: `up` resolves once its escapes run, `outcome` when the stream ends. */
function started(options: ExecOptions, leaving: string) {
  const up = deferred<void>();
  const outcome = deferred<{ result?: ExecResult; error?: unknown }>();
  const subscription = exec('sh', ['-c', script(leaving)], { forceKillAfterMs: 300, ...options }).subscribe({
    next: (event: ExecEvent) =>
      event.kind === 'exit' ? outcome.resolve({ result: event.content }) : up.resolve(),
    error: (error: unknown) => outcome.resolve({ error }),
  });
  return { up: up.promise, outcome: outcome.promise, unsubscribe: () => subscription.unsubscribe() };
}

describe.skipIf(!needs('linux', 'ps') || !needsCgroup())(
  'exec in its own cgroup: cancel means gone, even for daemons',
  () => {
    describe.each(Object.entries(ESCAPES))('%s', (_name, leave) => {
      it('is in the run cgroup while it runs, and unsubscribing kills it and removes the cgroup', async () => {
        const tag = newTag();
        const run = started({ containment: 'cgroup' }, leave(tag));
        await run.up;
        const escaped = processesWithTag(tag);
        expect(escaped.length).toBeGreaterThan(0);
        for (const pid of escaped)
          expect(cgroupOf(pid)).toMatch(new RegExp(`/sluice-${process.pid}-[0-9a-f]+/run-\\d+$`));
        run.unsubscribe();
        await expectAllGone(tag);
      });

      it('cancelSignal: the stream errors with CANCELLED, containment cgroup, and nothing is left', async () => {
        const tag = newTag();
        const abort = new AbortController();
        const run = started({ containment: 'cgroup', cancelSignal: abort.signal }, leave(tag));
        await run.up;
        abort.abort();
        const { error } = await run.outcome;
        expect(error).toMatchObject({ code: 'CANCELLED', info: { result: { containment: 'cgroup' } } });
        await expectAllGone(tag);
      });

      it('timeoutMs: TIMEOUT, and nothing is left', async () => {
        const tag = newTag();
        const run = started({ containment: 'cgroup', timeoutMs: 800 }, leave(tag));
        const { error } = await run.outcome;
        expect(error).toMatchObject({ code: 'TIMEOUT', info: { containment: 'cgroup', timedOut: true } });
        await expectAllGone(tag);
      });
    });

    it('a run that ends by itself takes the daemons it started with it (the leader exits 0)', async () => {
      const tag = newTag();
      const events = await firstValueFrom(
        exec('sh', ['-c', `${ESCAPES['a setsid daemon'](tag)}\nsleep 0.2; echo done`], {
          forceKillAfterMs: 300,
        }).pipe(toArray()),
      );
      const exit = events.at(-1)?.content as ExecResult;
      expect(exit).toMatchObject({ exitCode: 0, containment: 'cgroup' });
      await expectAllGone(tag);
    });

    it("'auto' (the default) is a cgroup here; take(1) ends it like any unsubscribe", async () => {
      const tag = newTag();
      await firstValueFrom(exec('sh', ['-c', script(ESCAPES['a setsid daemon'](tag))]).pipe(take(1)));
      await expectAllGone(tag);
    });

    it("'group': the same setsid daemon outlives the cancelled run (what a process group cannot catch)", async () => {
      const tag = newTag();
      const run = started({ containment: 'group' }, ESCAPES['a setsid daemon'](tag));
      await run.up;
      // Once `exec -a` ran, the daemon is in its own session: the group kill cannot reach it.
      expect(await pollUntil(() => processesNamed(`${tag}-daemon`).length === 1, 5_000)).toBe(true);
      run.unsubscribe();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(processesWithTag(tag).length).toBe(1); // the daemon; afterEach kills it
      expect(sluiceCgroupsOf()).toEqual([]);
    });

    it('a parent that dies of a signal or calls process.exit() takes its runs, daemons and cgroups with it', async () => {
      for (const mode of ['signal', 'exit'] as const) {
        const tag = newTag();
        const child = execa(
          process.execPath,
          ['--import', 'tsx', fixture('parent-with-daemon.ts'), mode, tag, 'cgroup'],
          {
            reject: false,
            buffer: false,
          },
        );
        // A dead process's cgroups may carry the child's pid (a pid reused after a SIGKILL).
        const pid = child.pid as number;
        const left = sluiceCgroupsBefore(pid);
        let stdout = '';
        await new Promise<void>((resolve) => {
          child.stdout?.on('data', (data: Buffer) => {
            stdout += String(data);
            if (stdout.includes('ready\n')) resolve();
          });
        });
        if (mode === 'signal') {
          // Up: the two daemons (and the run's leader, whose script names them), its sluice cgroup and the run's.
          expect(processesWithTag(tag).length).toBeGreaterThanOrEqual(2);
          expect(sluiceCgroupsOf(pid, left).length).toBe(2);
        }
        if (mode === 'signal') child.kill('SIGTERM');
        const result = await child;
        expect(mode === 'signal' ? result.signal : result.exitCode).toBe(mode === 'signal' ? 'SIGTERM' : 3);
        expect(await pollUntil(() => processesWithTag(tag).length === 0, 5_000), mode).toBe(true);
        expect(sluiceCgroupsOf(pid, left), mode).toEqual([]);
      }
    });

    const time = requireTool('time', which('/usr/bin/time'), 'apt-get install time');
    /** The CPU time `/usr/bin/time` reported on stderr (`TIME <user s> <system s>`), in milliseconds. */
    const timeReported = (stderr: string) =>
      (/TIME ([\d.]+) ([\d.]+)/.exec(stderr) ?? ['', 'NaN', 'NaN'])
        .slice(1)
        .reduce((sum, seconds) => sum + Number(seconds) * 1000, 0);
    const cpuOf = (result: ExecResult) => (result.usage?.cpuUserMs ?? 0) + (result.usage?.cpuSystemMs ?? 0);
    const busy = 'i=0; while [ $i -lt 1000000 ]; do i=$((i+1)); done';

    it.skipIf(time === undefined)('usage of a busy child matches /usr/bin/time within 10 %', async () => {
      const result = await runToEnd(
        exec('/usr/bin/time', ['-f', 'TIME %U %S', 'sh', '-c', busy], { containment: 'cgroup' }),
      );
      const reported = timeReported(result.stderr);
      expect(reported).toBeGreaterThan(200);
      expect(Math.abs(cpuOf(result) - reported) / reported, `${cpuOf(result)} vs ${reported}`).toBeLessThan(
        0.1,
      );
    });

    it.skipIf(time === undefined)(
      "usage counts a setsid daemon's CPU time too (the leader only waits)",
      async () => {
        const result = await runToEnd(
          exec('sh', ['-c', `setsid /usr/bin/time -f 'TIME %U %S' sh -c '${busy}' & wait`], {
            containment: 'cgroup',
          }),
        );
        const reported = timeReported(result.stderr);
        expect(reported).toBeGreaterThan(200);
        expect(Math.abs(cpuOf(result) - reported) / reported, `${cpuOf(result)} vs ${reported}`).toBeLessThan(
          0.1,
        );
      },
    );

    it("'group' has no cgroup and no usage", async () => {
      const [exit] = await firstValueFrom(exec('true', [], { containment: 'group' }).pipe(toArray()));
      expect(exit?.content).toMatchObject({ containment: 'group', usage: null, limitHit: null });
    });
  },
);

describe.skipIf(!needs('linux') || !needsCgroup())(
  'where a cgroup or a controller is missing: typed errors, never a silent no-op',
  () => {
    const notEnabled = controllersNotEnabled('memory', 'pids', 'cpu') as LimitController[];
    // Where every controller is enabled, the limit tests below run instead.
    it.skipIf(notEnabled.length === 0)(
      'limits whose controller is not enabled fail with LIMIT_UNAVAILABLE naming it, before anything runs',
      async () => {
        for (const controller of notEnabled) {
          const tag = newTag();
          const error = await lastValueFrom(
            exec('sh', ['-c', `echo ran ${tag}`], { limits: LIMIT_BY_CONTROLLER[controller] }),
          ).catch((caught: unknown) => caught);
          expect(error).toMatchObject({ code: 'LIMIT_UNAVAILABLE', info: { controller } });
          expect((error as Error).message).toContain(
            `\`${controller}\` controller is not enabled on this machine`,
          );
        }
        expect(sluiceCgroupsOf()).toEqual([]);
      },
    );

    it.skipIf(
      process.getuid?.() !== 0 ||
        requireTool('setpriv', which('setpriv'), 'apt-get install util-linux') === undefined,
    )(
      "a user who may not make cgroups: 'cgroup' fails with CGROUP_UNAVAILABLE saying why, 'auto' runs in a process group",
      async () => {
        const nobody = await execa(
          'setpriv',
          [
            '--reuid=65534',
            '--regid=65534',
            '--clear-groups',
            '--',
            process.execPath,
            '--import',
            'tsx',
            fixture('containment-outcomes.ts'),
          ],
          { env: { HOME: '/tmp' }, reject: false },
        );
        expect(nobody.stderr).toBe('');
        const outcomes = JSON.parse(nobody.stdout);
        expect(outcomes.cgroup).toMatchObject({ code: 'CGROUP_UNAVAILABLE' });
        expect(outcomes.cgroup.message).toMatch(
          /may not create cgroups in .* \(EACCES\): run as root, or in a delegated subtree/,
        );
        expect(outcomes.auto).toEqual({ containment: 'group' });
        expect(outcomes.limits).toMatchObject({ code: 'LIMIT_UNAVAILABLE' });
        expect(outcomes.limits.message).toContain('they need a cgroup');
      },
    );
  },
);

describe.skipIf(!needs('linux', 'python3') || !needsCgroup())(
  'tree-wide limits, where the controllers are enabled',
  () => {
    it.skipIf(!needsControllers('pids'))(
      'a fork bomb is capped by limits.pids: LIMIT_EXCEEDED, limitHit pids, nothing left',
      async () => {
        const tag = newTag();
        const bomb = `bomb() { bomb | bomb & }; bomb; exec -a ${tag} sleep 1000`;
        const error = await lastValueFrom(
          exec('bash', ['-c', bomb], { limits: { pids: 20 }, timeoutMs: 20_000 }),
        ).catch((caught: unknown) => caught);
        expect(error).toMatchObject({
          code: 'LIMIT_EXCEEDED',
          info: { limitHit: 'pids', containment: 'cgroup', timedOut: false },
        });
        expect((error as ExecError).result.usage?.pidsPeak).toBeLessThanOrEqual(20);
        await expectAllGone(tag);
      },
    );

    it.skipIf(!needsControllers('memory'))(
      'limits.memoryBytes: a child past it is OOM-killed, LIMIT_EXCEEDED, limitHit memory',
      async () => {
        const tag = newTag();
        const grow =
          'import time\nheld = []\nwhile True:\n    held.append(bytearray(8 << 20))\n    time.sleep(0.001)';
        const error = await lastValueFrom(
          exec('python3', ['-c', grow, tag], { limits: { memoryBytes: 64 << 20 }, timeoutMs: 20_000 }),
        ).catch((caught: unknown) => caught);
        expect(error).toMatchObject({
          code: 'LIMIT_EXCEEDED',
          info: { limitHit: 'memory', signal: 'SIGKILL' },
        });
        expect((error as ExecError).result.usage?.memoryPeakBytes).toBeLessThanOrEqual(
          (64 << 20) + (1 << 20),
        );
        await expectAllGone(tag);
      },
    );

    it.skipIf(!needsControllers('cpu'))(
      'limits.cpuPercent slows a busy child to that share of a CPU (never a hit)',
      async () => {
        const busy = 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done';
        const result = await runToEnd(exec('sh', ['-c', busy], { limits: { cpuPercent: 20 } }));
        const cpu = (result.usage?.cpuUserMs ?? 0) + (result.usage?.cpuSystemMs ?? 0);
        expect(result).toMatchObject({ exitCode: 0, limitHit: null });
        // 20 % of one CPU: the wall time is at least 3 times the CPU time (5 in theory).
        expect(result.durationMs / cpu).toBeGreaterThan(3);
      },
    );
  },
);

describe('containment and limits: bad input is a clear error', () => {
  it('names the option and the value', () => {
    expect(() => exec('true', [], { containment: 'cgroups' as 'cgroup' })).toThrow(
      "Expected the `containment` option to be `'auto'`, `'cgroup'` or `'group'`, got `cgroups` (string)",
    );
    expect(() => exec('true', [], { limits: { memory: 1 } as never })).toThrow('limits.memory');
    expect(() => exec('true', [], { limits: { pids: 0 } })).toThrow(
      '`limits.pids` option to be a positive integer',
    );
    expect(() => exec('true', [], { containment: 'group', limits: { pids: 10 } })).toThrow(
      'limits need a cgroup',
    );
  });
});
