/**
 * How `exec` contains a run (its `containment` option): `'auto'` — its own cgroup where this
 * process may make one (Linux, cgroup v2, root or a delegated subtree), its own process group
 * elsewhere; `'cgroup'` — a cgroup or the `CGROUP_UNAVAILABLE` error saying why not; `'group'` —
 * the process group only. See docs/containment.md.
 */
export type ContainmentOption = 'auto' | 'cgroup' | 'group';
