/**
 * How a run was contained (the exit result's `containment`): `'cgroup'` — its own cgroup v2, which
 * holds every process it starts however it daemonizes, ended with `cgroup.kill`; `'group'` — its
 * own process group, which a descendant leaves with `setsid`. See docs/containment.md.
 */
export type Containment = 'cgroup' | 'group';
