import { randomUUID } from 'node:crypto';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { Containment } from '../../src/sources/exec/exec-result.js';
import { fixture, pollUntil, processesWithTag } from '../support/processes.js';
import { containments, needs } from '../support/system-tools.js';

/** Runs test/fixtures/parent-with-children.ts as a user's script: a separate Node process. */
function startParent(mode: string, containment: Containment, tty = false) {
  const tag = `sluice-parent-${randomUUID()}`;
  const script = fixture('parent-with-children.ts');
  const args = ['--import', 'tsx', script, mode, tag, containment, ...(tty ? ['tty'] : [])];
  const child = execa(process.execPath, args, {
    reject: false,
    buffer: false,
  });
  let stdout = '';
  const ready = new Promise<void>((resolve) => {
    child.stdout?.on('data', (data: Buffer) => {
      stdout += String(data);
      if (stdout.includes('ready\n')) resolve();
    });
  });
  tags.push(tag);
  return { child, tag, ready, output: () => stdout };
}

/**
 * The processes of the runs: every one carries the tag (the two leaders and their background
 * subshells), as does the parent script itself, which is left out.
 */
const children = (tag: string, parent: number | undefined) =>
  processesWithTag(tag).filter((pid) => pid !== parent).length;

const tags: string[] = [];
afterEach(() => {
  // A failed test must not leave its groups behind.
  for (const tag of tags.splice(0)) for (const pid of processesWithTag(tag)) process.kill(pid, 'SIGKILL');
});

describe.skipIf(!needs('linux')).each(containments())(
  'exec: a dying parent takes its runs with it (containment %s)',
  (containment) => {
    // Which signal is re-raised is the exit hook's business, the same under either containment: the
    // three run once, under 'group'.
    it.each(containment === 'group' ? (['SIGINT', 'SIGTERM', 'SIGHUP'] as const) : (['SIGTERM'] as const))(
      'killed by %s: no process of any group is left, and the parent still dies of the signal',
      async (signal) => {
        const { child, tag, ready } = startParent('signal', containment);
        await ready;
        // Two leaders and their background subshells; a shell that is forking `sleep` shows for a
        // moment as a fifth process with the tag.
        expect(children(tag, child.pid)).toBeGreaterThanOrEqual(4);
        child.kill(signal);
        const result = await child;
        // The signal was re-raised after the cleanup: the shell sees 128 + n, as without sluice.
        expect(result.signal).toBe(signal);
        expect(await pollUntil(() => children(tag, child.pid) === 0, 20_000)).toBe(true);
      },
    );

    it('calling process.exit(): no process is left, and the exit code is kept', async () => {
      const { child, tag, ready } = startParent('exit', containment);
      await ready;
      const result = await child;
      expect(result.exitCode).toBe(3);
      expect(await pollUntil(() => children(tag, child.pid) === 0, 20_000)).toBe(true);
    });

    it('dying of an uncaught exception: no process is left', async () => {
      const { child, tag } = startParent('throw', containment);
      const result = await child;
      expect(result.exitCode).toBe(1);
      expect(await pollUntil(() => children(tag, child.pid) === 0, 20_000)).toBe(true);
    });

    it("leaves the signal to an app's own handler, and cleans up when that handler exits", async () => {
      const { child, tag, ready, output } = startParent('handler', containment);
      await ready;
      child.kill('SIGTERM');
      const result = await child;
      expect(output()).toContain('handled\n');
      expect(result.exitCode).toBe(7);
      expect(await pollUntil(() => children(tag, child.pid) === 0, 20_000)).toBe(true);
    });

    it('`cleanup: false` lets the groups outlive their parent', async () => {
      const { child, tag, ready } = startParent('nocleanup', containment);
      await ready;
      const result = await child;
      expect(result.exitCode).toBe(3);
      // Both groups live on (a shell forking `sleep` may show for a moment as a fifth process).
      expect(children(tag, child.pid)).toBeGreaterThanOrEqual(4);
    });
  },
);

describe.skipIf(!needs('linux', 'script')).each(containments())(
  'exec with `tty`: a dying parent takes the whole terminal session with it (containment %s)',
  (containment) => {
    // Each run's session holds `script`'s child and a member in a process group of its own that
    // ignores SIGHUP and SIGTERM: killing the leader's group, or hanging up the terminal, leaves it.
    it.each(['SIGKILL', 'SIGINT', 'SIGTERM'] as const)(
      'killed by %s: no process of either session is left',
      async (signal) => {
        const { child, tag, ready } = startParent('signal', containment, true);
        await ready;
        // Per run: `script` (its command line holds the tag), the command and its member.
        expect(children(tag, child.pid)).toBeGreaterThanOrEqual(6);
        child.kill(signal);
        expect((await child).signal).toBe(signal);
        expect(await pollUntil(() => children(tag, child.pid) === 0, 20_000)).toBe(true);
      },
    );

    it('calling process.exit(): no process of either session is left', async () => {
      const { child, tag } = startParent('exit', containment, true);
      expect((await child).exitCode).toBe(3);
      expect(await pollUntil(() => children(tag, child.pid) === 0, 20_000)).toBe(true);
    });
  },
);
