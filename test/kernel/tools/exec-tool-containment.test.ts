import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSupervisor } from '../../../src/kernel/supervisor/create-supervisor.js';
import { dispatchToolCall } from '../../../src/kernel/tools/dispatch-tool-call.js';
import type { ExecToolConfig } from '../../../src/kernel/tools/exec-tool-args.js';
import { type ExecToolWireResult, execToolResultSchema } from '../../../src/kernel/tools/exec-tool-result.js';
import { createToolRegistry, registerBuiltinTools } from '../../../src/kernel/tools/tool-registry.js';
import { LIMIT_BY_CONTROLLER, type LimitController, sluiceCgroupsOf } from '../../support/cgroups.js';
import { pollUntil, processesWithTag } from '../../support/processes.js';
import { controllersNotEnabled, needs, needsCgroup, needsControllers } from '../../support/system-tools.js';

function call(config: ExecToolConfig, argv: string[]) {
  return dispatchToolCall({
    msg: { op: 'tool_call', id: 1, name: 'Exec', args: { argv, timeout_s: 30 } },
    pid: 7,
    registry: registerBuiltinTools(createToolRegistry(), config),
  });
}

// The daemon does not hold the call's pipes: a process group's call ends when its leader does.
// The script waits (on a FIFO) until the daemon is in its own session: were the leader to exit
// first, the group kill could reach the daemon before `setsid` ran.
const daemonScript = (tag: string) =>
  `f=$(mktemp -u); mkfifo "$f"; setsid bash -c "echo > '$f'; exec -a ${tag} sleep 1000" >/dev/null 2>&1 & read -r _ < "$f"; rm -f "$f"; echo started`;

describe.skipIf(!needs('linux') || !needsCgroup())("the Exec tool's containment (the host's config)", () => {
  it("'cgroup': the call's daemon dies with it, and the result says containment and usage", async () => {
    const tag = `sluice-tool-cg-${randomUUID()}`;
    const result = await call({ containment: 'cgroup' }, ['bash', '-c', daemonScript(tag)]);
    expect(result).toMatchObject({
      ok: true,
      value: { exit_code: 0, stdout: 'started\n', containment: 'cgroup' },
    });
    const value = (result as { value: ExecToolWireResult }).value;
    expect(value.usage?.cpu_user_ms).toBeGreaterThanOrEqual(0);
    expect(execToolResultSchema.safeParse(value).success).toBe(true);
    expect(await pollUntil(() => processesWithTag(tag).length === 0, 5_000)).toBe(true);
    expect(await pollUntil(() => sluiceCgroupsOf().length === 0, 5_000)).toBe(true);
  });

  it("'group': no cgroup, no usage — and the daemon outlives the call", async () => {
    const tag = `sluice-tool-group-${randomUUID()}`;
    try {
      const result = await call({ containment: 'group' }, [
        'bash',
        '-c',
        `${daemonScript(tag)} >/dev/null; exec >&- 2>&-`,
      ]);
      expect(result).toMatchObject({ ok: true, value: { exit_code: 0, containment: 'group' } });
      expect((result as { value: ExecToolWireResult }).value).not.toHaveProperty('usage');
      // The escaped daemon runs on (once its `exec -a` ran: it may still be starting).
      expect(await pollUntil(() => processesWithTag(tag).length === 1, 5_000)).toBe(true);
    } finally {
      for (const pid of processesWithTag(tag)) process.kill(pid, 'SIGKILL');
    }
  });

  const notEnabled = controllersNotEnabled('pids', 'memory', 'cpu') as LimitController[];
  it.skipIf(notEnabled.length === 0)(
    'limits whose controller is not enabled: every call fails with LIMIT_UNAVAILABLE',
    async () => {
      const controller = notEnabled[0] as LimitController;
      const result = await call({ limits: LIMIT_BY_CONTROLLER[controller] }, ['true']);
      expect(result).toMatchObject({ ok: false, error: { code: 'LIMIT_UNAVAILABLE' } });
    },
  );

  it.skipIf(!needsControllers('pids'))(
    "limits.pids, where the controller is enabled: a call that forks past it ends with limit_hit 'pids', nothing left",
    async () => {
      const tag = `sluice-tool-pids-${randomUUID()}`;
      const bomb = `bomb() { bomb | bomb & }; bomb; exec -a ${tag} sleep 1000`;
      const result = await call({ limits: { pids: 20 } }, ['bash', '-c', bomb]);
      expect(result).toMatchObject({ ok: true, value: { containment: 'cgroup', limit_hit: 'pids' } });
      expect(await pollUntil(() => processesWithTag(tag).length === 0, 10_000)).toBe(true);
      expect(await pollUntil(() => sluiceCgroupsOf().length === 0, 10_000)).toBe(true);
    },
  );

  it("the supervisor's containment reaches its built-in Exec tool", async () => {
    for (const containment of ['group', 'cgroup'] as const) {
      const handle = createSupervisor({ containment }).spawn(async (channel) => {
        channel.send({ op: 'result', value: await channel.callTool('Exec', { argv: ['true'] }) });
        return 0;
      });
      const info = await handle.wait({ timeoutMs: 30_000 });
      expect(info.result).toMatchObject({ ok: true, value: { containment } });
    }
    expect(() => createSupervisor({ containment: 'jail' as 'group' })).toThrow('`containment` option');
  });
});
