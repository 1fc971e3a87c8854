import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { SluiceError } from '../../core/errors/sluice-error.js';
import type { ExecUsage, LimitName } from './exec-result.js';
import type { ExecLimits } from './process-port.js';

/** The cgroup v2 controller each of the `limits` needs. */
const CONTROLLER_OF: Readonly<Record<keyof ExecLimits, string>> = {
  memoryBytes: 'memory',
  pids: 'pids',
  cpuPercent: 'cpu',
};

/**
 * The cgroup of one run, which sluice made and removes: a child of this process's sluice cgroup
 * (see {@link acquireCgroupParent}). Only files of cgroups sluice made are ever read or written.
 */
export class CgroupRun {
  private removed = false;

  private constructor(
    /** The run's cgroup directory. */
    readonly path: string,
    private readonly controllers: ReadonlySet<string>,
  ) {}

  /**
   * Makes the run's cgroup under `base` with `limits` written to it. Throws a `SluiceError` with
   * code `LIMIT_UNAVAILABLE` naming the first limit whose controller is not enabled, and how to
   * enable it; any file system error is thrown as is. Nothing is left behind when it throws.
   */
  static create(base: string, limits: ExecLimits | undefined): CgroupRun {
    const parent = acquireCgroupParent(base);
    const missing = Object.keys(limits ?? {}).find(
      (name) => !parent.controllers.has(CONTROLLER_OF[name as keyof ExecLimits]),
    ) as keyof ExecLimits | undefined;
    if (missing !== undefined) {
      releaseCgroupParent();
      throw controllerMissing(base, missing, limits as ExecLimits);
    }
    runCount += 1;
    const path = `${parent.path}/run-${runCount}`;
    try {
      mkdirSync(path);
    } catch (error) {
      releaseCgroupParent();
      throw error;
    }
    const run = new CgroupRun(path, parent.controllers);
    try {
      run.applyLimits(limits ?? {});
    } catch (error) {
      run.remove();
      throw error;
    }
    return run;
  }

  /** The file a process writes its pid into to join the run. */
  get procsFile(): string {
    return `${this.path}/cgroup.procs`;
  }

  /** The file whose `1` `SIGKILL`s every process of the run (what {@link kill} writes). */
  get killFile(): string {
    return `${this.path}/cgroup.kill`;
  }

  /** The pids of the run's live processes (empty once it is gone). */
  members(): number[] {
    const text = this.read('cgroup.procs');
    return text === undefined || text === '' ? [] : text.trim().split('\n').map(Number);
  }

  /** `SIGKILL`s every process of the run at once, forks in flight included (`cgroup.kill`). */
  kill(): void {
    try {
      writeFileSync(this.killFile, '1');
    } catch {
      // Already removed: nothing is left to kill.
    }
  }

  /** Whether any process of the run is alive (`cgroup.events`: `populated 1`; zombies do not count). */
  populated(): boolean {
    return this.read('cgroup.events')?.includes('populated 1') ?? false;
  }

  /** What the run used so far: complete once it is no longer {@link populated}. */
  usage(): ExecUsage {
    const cpu = keyed(this.read('cpu.stat'));
    const usage: ExecUsage = {
      cpuUserMs: (cpu.user_usec ?? 0) / 1000,
      cpuSystemMs: (cpu.system_usec ?? 0) / 1000,
    };
    // A controller that is not enabled has no files here: reading them would only fail (a thrown
    // ENOENT per run).
    if (this.controllers.has('memory')) {
      const memoryPeak = Number(this.read('memory.peak'));
      if (Number.isFinite(memoryPeak)) usage.memoryPeakBytes = memoryPeak;
    }
    if (this.controllers.has('pids')) {
      const pidsPeak = Number(this.read('pids.peak'));
      if (Number.isFinite(pidsPeak)) usage.pidsPeak = pidsPeak;
    }
    return usage;
  }

  /** The limit the run ran into: the OOM killer acted (`memory.events`), or a fork was refused (`pids.events`). */
  limitHit(): LimitName | null {
    if (this.controllers.has('memory')) {
      const memory = keyed(this.read('memory.events'));
      if ((memory.oom_kill ?? 0) > 0 || (memory.oom_group_kill ?? 0) > 0) return 'memory';
    }
    if (this.controllers.has('pids') && (keyed(this.read('pids.events')).max ?? 0) > 0) return 'pids';
    return null;
  }

  /**
   * Removes the run's cgroup (and, with the last run, this process's sluice cgroup). Returns
   * whether it is gone: not while a process of the run is alive.
   */
  remove(): boolean {
    if (this.removed) return true;
    try {
      rmdirSync(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
    this.removed = true;
    releaseCgroupParent();
    return true;
  }

  private applyLimits(limits: ExecLimits): void {
    if (limits.memoryBytes !== undefined) {
      this.write('memory.max', String(limits.memoryBytes));
      this.write('memory.swap.max', '0', true);
      this.write('memory.oom.group', '1', true);
    }
    if (limits.pids !== undefined) this.write('pids.max', String(limits.pids));
    if (limits.cpuPercent !== undefined) this.write('cpu.max', `${limits.cpuPercent * 1000} 100000`);
  }

  private write(file: string, value: string, optional = false): void {
    try {
      writeFileSync(`${this.path}/${file}`, value);
    } catch (error) {
      if (!optional || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  private read(file: string): string | undefined {
    try {
      return readFileSync(`${this.path}/${file}`, 'latin1');
    } catch {
      return undefined;
    }
  }
}

function controllerMissing(base: string, limit: keyof ExecLimits, limits: ExecLimits): SluiceError {
  const controller = CONTROLLER_OF[limit];
  return new SluiceError(
    'LIMIT_UNAVAILABLE',
    `Cannot apply the \`limits.${limit}\` limit (${limits[limit]}): the cgroup v2 \`${controller}\` controller is ` +
      `not enabled on this machine for this process's cgroup ${base} (its cgroup.subtree_control lacks ` +
      `\`${controller}\`; whoever owns it can add it: \`echo +${controller} > ${base}/cgroup.subtree_control\`, ` +
      'see docs/containment.md)',
    { info: { limits, limit, controller, cgroup: base } },
  );
}

/** `key value` lines (`cpu.stat`, `memory.events`) as numbers by key. */
function keyed(text: string | undefined): Record<string, number> {
  const values: Record<string, number> = {};
  for (const line of (text ?? '').split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) values[line.slice(0, space)] = Number(line.slice(space + 1));
  }
  return values;
}

/** The controllers sluice enables for its runs when this process's cgroup offers them. */
const WANTED = ['memory', 'pids', 'cpu'] as const;

/** The cgroup under which this process's runs get theirs, while at least one exists; its controllers are the runs'. */
let current: { readonly path: string; readonly controllers: ReadonlySet<string>; runs: number } | undefined;
let runCount = 0;

/**
 * Makes (or reuses) this process's own sluice cgroup under `base`, `sluice-<pid>-<random>`, and
 * counts one more run in it; the controllers `base` hands down are enabled for the runs
 * (docs/containment.md, "What a cgroup catches"). sluice never writes to `base` itself.
 */
function acquireCgroupParent(base: string): NonNullable<typeof current> {
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
 */
function releaseCgroupParent(): void {
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
