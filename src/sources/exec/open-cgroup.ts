import { isSluiceError, SluiceError } from '../../core/errors/sluice-error.js';
import { CgroupRun } from './cgroup-run.js';
import { cgroupSupport } from './cgroup-support.js';
import type { ContainmentOption } from './containment-option.js';
import type { ExecLimits } from './exec-limits.js';

/**
 * Makes the cgroup of one run as `containment` asks, before anything is spawned:
 *
 * - `'group'`: none (process group only);
 * - `'auto'`: one where {@link cgroupSupport} says cgroups work, none elsewhere;
 * - `'cgroup'`: one, or a `SluiceError` with code `CGROUP_UNAVAILABLE` saying why not.
 *
 * `limits` need a cgroup whatever `containment` says: without one they fail with
 * `LIMIT_UNAVAILABLE` (as do limits whose controller is not enabled, see {@link CgroupRun.create}),
 * never run without them.
 *
 * @example
 * ```ts
 * const run = openCgroup('auto', undefined); // a CgroupRun as root on Linux, undefined on macOS
 * ```
 */
export function openCgroup(
  containment: ContainmentOption,
  limits: ExecLimits | undefined,
): CgroupRun | undefined {
  if (containment === 'group') return undefined;
  const support = cgroupSupport();
  if ('unavailable' in support) return refuse(containment, limits, support.unavailable);
  try {
    return CgroupRun.create(support.base, limits);
  } catch (error) {
    if (isSluiceError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return refuse(containment, limits, `cannot create a cgroup in ${support.base} (${code})`);
  }
}

/** Without a cgroup: the typed error `limits` or `containment: 'cgroup'` call for, else `undefined` (the process group). */
function refuse(containment: ContainmentOption, limits: ExecLimits | undefined, reason: string): undefined {
  if (limits !== undefined) {
    throw new SluiceError(
      'LIMIT_UNAVAILABLE',
      `Cannot apply the \`limits\` option (${Object.keys(limits).join(', ')}): they need a cgroup, and ${reason}`,
      { info: { limits, reason } },
    );
  }
  if (containment === 'cgroup') {
    throw new SluiceError(
      'CGROUP_UNAVAILABLE',
      `Cannot contain the run in a cgroup (\`containment: 'cgroup'\`): ${reason}`,
      {
        info: { reason },
      },
    );
  }
  return undefined;
}
