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
    'a script that stops a run by %s exits within 300 ms (forceKillAfterMs is 2000)',
    async (path) => {
      expect(await lingerMs(path)).toBeLessThan(300);
    },
  );

  it('…but waits out the kill sequence of a group that ignores SIGTERM, then exits', async () => {
    const ms = await lingerMs('ignores-term'); // forceKillAfterMs: 200
    expect(ms).toBeGreaterThanOrEqual(120);
    expect(ms).toBeLessThan(1000);
  });

  it('the measure sees a timer that does keep a script alive', async () => {
    expect(await lingerMs('timer-control')).toBeGreaterThanOrEqual(190);
  });
});
