import type { ResolvedExecOptions } from './exec-options.js';
import type { SpawnRequest } from './process-port.js';

/**
 * What `exec` asks of its {@link ProcessPort}, from the resolved options.
 *
 * @example
 * ```ts
 * const handle = port.spawn(spawnRequest(options), events);
 * ```
 */
export function spawnRequest(options: ResolvedExecOptions): SpawnRequest {
  return {
    file: options.file,
    args: options.args,
    cwd: options.cwd,
    env: options.env,
    extendEnv: options.extendEnv,
    rlimits: options.rlimits,
    hasInput: options.input !== undefined,
    cleanup: options.cleanup,
    containment: options.containment,
    limits: options.limits,
  };
}
