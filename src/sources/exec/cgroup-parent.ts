import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';

/** The controllers sluice enables for its runs when this process's cgroup offers them. */
const WANTED = ['memory', 'pids', 'cpu'] as const;

/** The cgroup under which this process's runs get theirs, while at least one exists. */
export interface CgroupParent {
  readonly path: string;
  /** The controllers enabled for the runs (a subset of `memory`, `pids`, `cpu`). */
  readonly controllers: ReadonlySet<string>;
}

let current: (CgroupParent & { runs: number }) | undefined;
let runCount = 0;

/**
 * Makes (or reuses) this process's own sluice cgroup under `base` and counts one more run in it.
 * Its name carries the pid and a random part (`sluice-4242-a1b2c3`) so that concurrent processes
 * and other sluice instances never share one; each run is a child of it named by a counter
 * ({@link nextRunName}). The controllers `base` hands down (`memory`, `pids`, `cpu`, those in its
 * `cgroup.subtree_control`) are enabled for the runs; sluice never writes to `base` itself.
 *
 * @example
 * ```ts
 * const parent = acquireCgroupParent('/sys/fs/cgroup/unified');
 * mkdirSync(`${parent.path}/${nextRunName()}`);
 * ```
 */
export function acquireCgroupParent(base: string): CgroupParent {
  if (current === undefined) {
    // The random part tells processes apart, it guards nothing: Math.random, not node:crypto,
    // which every exec would pay for at start-up (docs/performance.md, "What start-up loads").
    const random = Math.floor(Math.random() * 0x1000000)
      .toString(16)
      .padStart(6, '0');
    const path = `${base}/sluice-${process.pid}-${random}`;
    mkdirSync(path);
    current = { path, controllers: enableControllers(path), runs: 0 };
  }
  current.runs += 1;
  return current;
}

/**
 * Counts one run less in the parent of {@link acquireCgroupParent}; with the last one it is
 * removed (it holds no process, only the runs' cgroups, which are removed first).
 *
 * @example
 * ```ts
 * rmdirSync(runPath);
 * releaseCgroupParent();
 * ```
 */
export function releaseCgroupParent(): void {
  if (current === undefined) return;
  current.runs -= 1;
  if (current.runs > 0) return;
  const { path } = current;
  current = undefined;
  try {
    rmdirSync(path);
  } catch {
    // Still holds a run's cgroup that could not be removed (a process stuck in the kernel): left.
  }
}

/** The name of the next run's cgroup: unique within this process. */
export function nextRunName(): string {
  runCount += 1;
  return `run-${runCount}`;
}

function enableControllers(path: string): ReadonlySet<string> {
  const offered = new Set(readFileSync(`${path}/cgroup.controllers`, 'utf8').trim().split(/\s+/));
  for (const name of WANTED) {
    if (!offered.has(name)) continue;
    try {
      writeFileSync(`${path}/cgroup.subtree_control`, `+${name}`);
    } catch {
      // Refused (a threaded subtree, a controller busy in v1): runs go without it.
    }
  }
  const enabled = readFileSync(`${path}/cgroup.subtree_control`, 'utf8').trim();
  return new Set(enabled === '' ? [] : enabled.split(/\s+/));
}
