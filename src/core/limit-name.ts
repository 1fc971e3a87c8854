/**
 * The tree-wide limit (the `limits` option of `exec`, enforced by the run's cgroup) a run ran
 * into: `'memory'` when the kernel's OOM killer ended it at `limits.memoryBytes`, `'pids'` when a
 * fork failed at `limits.pids`. (`limits.cpuPercent` throttles and is never "hit".)
 *
 * @example
 * ```ts
 * import { exec, type LimitName } from 'sluice';
 * exec('make', ['-j64'], { limits: { pids: 100 }, reject: false }).subscribe((event) => {
 *   const hit: LimitName | null = event.kind === 'exit' ? event.content.limitHit : null;
 *   if (hit === 'pids') console.warn('make tried to start more than 100 processes');
 * });
 * ```
 */
export type LimitName = 'memory' | 'pids';
