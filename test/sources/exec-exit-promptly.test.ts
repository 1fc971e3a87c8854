import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture } from '../support/processes.js';
import { needs } from '../support/system-tools.js';

/** Runs test/fixtures/cancel-then-exit.ts: how long the script lived after its last line of code. */
async function lingerMs(path: string): Promise<number> {
  const result = await execa(process.execPath, ['--import', 'tsx', fixture('cancel-then-exit.ts'), path]);
  const match = /^exited ([\d.]+) ms after the script was done\n?$/.exec(result.stdout);
  if (match === null) throw new Error(`unexpected output: ${result.stdout}`);
  return Number(match[1]);
}

describe.skipIf(!needs('linux'))('exec: a cancelled run does not keep the process alive', () => {
  it.each(['break', 'unsubscribe', 'take', 'readable-stream', 'on-chunk-signal', 'cancel-signal', 'timeout'])(
    'a script that stops a run by %s exits at once, not after forceKillAfterMs (2000)',
    async (path) => {
      // Half of forceKillAfterMs: generous for a loaded machine, and still far from the escalation.
      expect(await lingerMs(path)).toBeLessThan(1000);
    },
  );

  it('…but waits out the kill sequence of a group that ignores SIGTERM, then exits', async () => {
    const ms = await lingerMs('ignores-term'); // forceKillAfterMs: 200
    expect(ms).toBeGreaterThanOrEqual(120);
    expect(ms).toBeLessThan(1500); // not the default's 2000: the run's own forceKillAfterMs
  });

  it('the measure sees a timer that does keep a script alive', async () => {
    expect(await lingerMs('timer-control')).toBeGreaterThanOrEqual(190);
  });
});
