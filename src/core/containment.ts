/**
 * How a run was contained (the exit result's `containment`): `'cgroup'` — its own cgroup v2, which
 * holds every process it starts however it daemonizes, ended with `cgroup.kill`; `'group'` — its
 * own process group, which a descendant leaves with `setsid`. See docs/containment.md.
 *
 * @example
 * ```ts
 * import { exec, type Containment } from 'sluice';
 * exec('npm', ['run', 'dev']).subscribe((event) => {
 *   const how: Containment | undefined = event.kind === 'exit' ? event.content.containment : undefined;
 *   if (how === 'group') console.warn('a daemon of this run may have outlived it');
 * });
 * ```
 */
export type Containment = 'cgroup' | 'group';
