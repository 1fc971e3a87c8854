/**
 * The resource limit a child ran into, as far as sluice can tell (see the
 * `rlimits` option of `exec`).
 *
 * @example
 * ```ts
 * import { exec, type RlimitName } from 'sluice';
 * exec('python3', ['crunch.py'], { rlimits: { cpuSeconds: 10 }, reject: false }).subscribe((event) => {
 *   const hit: RlimitName | null = event.kind === 'exit' ? event.content.rlimitHit : null;
 *   if (hit === 'cpu') console.warn('crunch.py ran out of CPU time');
 * });
 * ```
 */
export type RlimitName = 'cpu' | 'addressSpace' | 'fileSize' | 'openFiles';
