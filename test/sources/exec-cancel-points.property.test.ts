import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture } from '../support/processes.js';
import { isLinux, needs, needsCgroup } from '../support/system-tools.js';

describe.skipIf(!needs('linux'))(
  'exec: random cancel points through every cancel path (property, real processes)',
  () => {
    it('containment group: exactly one terminal event, no process left, no timer alive — and the process then exits at once', () =>
      property('group'));
    // The background process is then a `setsid` daemon, which only the run's cgroup holds.
    it.skipIf(!isLinux || !needsCgroup())(
      'containment cgroup: the same, with a setsid daemon, and no cgroup left',
      () => property('cgroup'),
    );
  },
);

async function property(containment: 'group' | 'cgroup'): Promise<void> {
  // test/fixtures/cancel-points.ts runs the property in a Node process of its own, so that its
  // event loop holds nothing but sluice: paths unsubscribe, take, for-await, ReadableStream,
  // onChunk's signal, cancelSignal and timeout; points before the spawn, mid-output, after the
  // exit and during the kill sequence; groups that die of SIGTERM and groups that ignore it.
  const rngSeed = Date.now() % 1_000_000;
  const child = execa(
    process.execPath,
    ['--import', 'tsx', fixture('cancel-points.ts'), '40', String(rngSeed), containment],
    {
      reject: false,
      buffer: false,
    },
  );
  let doneAt = 0;
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (data: Buffer) => {
    stdout += String(data);
    if (doneAt === 0 && stdout.includes('done')) doneAt = performance.now();
  });
  child.stderr?.on('data', (data: Buffer) => {
    stderr += String(data);
  });
  const result = await child;
  const lingered = performance.now() - doneAt;
  expect(stderr, `rngSeed ${rngSeed}`).toBe('');
  expect(result.exitCode, `rngSeed ${rngSeed}`).toBe(0);
  expect(stdout).toBe('done 40\n');
  expect(lingered).toBeLessThan(1_000);
}
