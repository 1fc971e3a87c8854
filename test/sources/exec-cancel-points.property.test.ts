import { randomUUID } from 'node:crypto';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture, processesWithTag } from '../support/processes.js';
import { containments, needs } from '../support/system-tools.js';

describe.skipIf(!needs('linux')).each(containments())(
  'exec: random cancel points through every cancel path (property, real processes, containment %s)',
  (containment) => {
    // With a cgroup the background process is a `setsid` daemon, which only the run's cgroup holds.
    it('exactly one terminal event, no process (nor cgroup) left, no timer alive — and the process then exits at once', () =>
      property(containment));
  },
);

/** The runs of the property. */
const RUNS = 40;

async function property(containment: 'group' | 'cgroup'): Promise<void> {
  // test/fixtures/cancel-points.ts runs the property in a Node process of its own, so that its
  // event loop holds nothing but sluice: paths unsubscribe, take, for-await, ReadableStream,
  // onChunk's signal, cancelSignal and timeout; points before the spawn, mid-output, after the
  // exit and during the kill sequence; groups that die of SIGTERM and groups that ignore it.
  const rngSeed = Date.now() % 1_000_000;
  const tagPrefix = `sluice-cancel-point-${randomUUID()}`;
  const args = ['--import', 'tsx', fixture('cancel-points.ts'), String(RUNS), String(rngSeed), containment];
  // Printed first, so that a run that fails in any way (a timeout included) can be repeated.
  console.log(`rngSeed ${rngSeed}; to repeat: node ${args.join(' ')}`);
  // The script leads a group of its own; each run's processes carry the tag prefix in their command line.
  const child = execa(process.execPath, [...args, tagPrefix], {
    reject: false,
    buffer: false,
    detached: true,
  });
  try {
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
    expect(stdout).toBe(`done ${RUNS}\n`);
    expect(lingered).toBeLessThan(1_000);
  } finally {
    killGroupAndRuns(child.pid, tagPrefix);
  }
}

/** Ends what a failed property left: the script's group, and every process of its runs (whatever group or session each is in). */
function killGroupAndRuns(pgid: number | undefined, tagPrefix: string): void {
  const targets = [...(pgid === undefined ? [] : [-pgid]), ...processesWithTag(tagPrefix)];
  for (const target of targets) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}
