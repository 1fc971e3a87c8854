import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pollUntil, processesWithTag } from '../support/processes.js';
import { startCli } from '../support/sluice-cli.js';
import { needs, needsCgroup } from '../support/system-tools.js';

describe('sluice exec --containment', () => {
  it('a bad value is a usage error naming the flag (exit 2)', async () => {
    const result = await startCli(['exec', '--containment', 'jail', '--', 'true']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'Expected the `--containment` flag to be `auto` or `cgroup` or `group`, got `jail`',
    );
  });

  it('group: the summary has no usage (there is no sound figure without a cgroup)', async () => {
    const result = await startCli(['exec', '--containment', 'group', '--', 'true']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/: exit 0 · [\d.]+m?s · 0 lines · 0 B\n?$/);
  });

  describe.skipIf(!needs('linux') || !needsCgroup())('where cgroups work', () => {
    it("cgroup: the summary says what the run used, and the run's daemon does not outlive it", async () => {
      const tag = `sluice-cli-cg-${randomUUID()}`;
      const result = await startCli([
        'exec',
        '--containment',
        'cgroup',
        '--',
        'bash',
        '-c',
        `setsid bash -c 'exec -a ${tag} sleep 1000' & i=0; while [ $i -lt 50000 ]; do i=$((i+1)); done`,
      ]);
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toMatch(/: exit 0 · .* · cpu [\d.]+s \([\d.]+s user, [\d.]+s system\)\n?$/);
      expect(await pollUntil(() => processesWithTag(tag).length === 0, 5_000)).toBe(true);
    });
  });
});
