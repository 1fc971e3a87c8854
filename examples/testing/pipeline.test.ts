// The example of docs/testing.md ("In your test runner"), as a real test (it runs in `npm test`).
// An application imports `sluice` and `sluice/testing`; inside this repository the same modules
// are imported from the sources.
import type { SchedulerLike } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type ExecEvent, exec, type ProcessPort, stallTimeout } from '../../src/index.js'; // 'sluice'
import { ChunkTestScheduler, withDemand } from '../../src/testing/index.js'; // 'sluice/testing'

/** The pipeline under test: a build whose output a UI renders; a UI stuck for 5 s stops the build. */
function buildOutput(warnings: string[], deps: { port?: ProcessPort; scheduler?: SchedulerLike } = {}) {
  return exec('make', ['build'], { ...deps, killSignal: 'SIGINT' }).pipe(
    stallTimeout<ExecEvent>({
      ms: 5_000,
      scheduler: deps.scheduler,
      logger: { warn: (text) => warnings.push(text) },
    }),
  );
}

const testScheduler = () => new ChunkTestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('buildOutput', () => {
  it('streams the lines of the build, then its exit', () => {
    testScheduler().run(({ fakeExec, expectChunks }) => {
      const make = fakeExec({
        stdout: '-a--b|',
        stderr: '--w|',
        values: { a: 'cc main.c\n', b: 'ld app\n', w: 'warning: unused\n' },
      });
      const exit = {
        command: 'make build',
        pid: 4242,
        exitCode: 0,
        signal: null,
        timedOut: false,
        truncated: false,
        durationMs: 5,
        stdout: 'cc main.c\nld app\n',
        stderr: 'warning: unused\n',
        rlimitHit: null,
        containment: 'group',
        usage: null,
        limitHit: null,
      };
      expectChunks(buildOutput([], { port: make })).toBe(
        '-aw-b(x|)',
        { a: 'cc main.c\n', w: 'warning: unused\n', b: 'ld app\n', x: exit },
        { kind: 'stdout', kinds: { w: 'stderr', x: 'exit' }, final: 'x' },
      );
    });
  });

  it('a UI that stops pulling stalls exactly 5 s later, and make is interrupted', () => {
    const warnings: string[] = [];
    testScheduler().run(({ fakeExec, demand, expectChunks, flush }) => {
      const make = fakeExec({ stdout: '-a-b-c-d-e-f', exit: 'hang' });
      const ui = demand('          ----p');
      const expected = '           -a-b 5000ms |';
      expectChunks(withDemand(ui, buildOutput(warnings, { port: make }))).toBe(
        expected,
        { a: 'a\n', b: 'b\n' },
        { kind: 'stdout', end: { metadata: { reason: 'stalled' } } },
      );
      flush();
      expect(make.pauses).toEqual([4]); // the UI's pause reached the process: it stopped being read
      expect(make.kills).toEqual([{ at: 5_004, signal: 'SIGINT' }]);
    });
    expect(warnings).toEqual(['Stream stalled: consumer did not pull for 5s']);
  });
});
