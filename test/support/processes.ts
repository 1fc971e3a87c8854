import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of a fixture in test/fixtures. */
export const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/**
 * The live (non-zombie) processes of group `pgid`, from `ps`. Zombies are left out: where PID 1
 * does not reap orphans (this container), killed members of a group stay as zombies forever.
 */
export function liveGroupMembers(pgid: number): number[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,stat=', '-g', String(pgid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when nothing matches
  }
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat]) => pid !== undefined && pid !== '' && stat !== undefined && !stat.startsWith('Z'))
    .map(([pid]) => Number(pid));
}

/**
 * Whether process `pid` is alive and not a zombie: from its one `/proc` stat file where there is
 * a `/proc` (cheap enough to poll every millisecond), else from `ps`.
 */
export function processAlive(pid: number): boolean {
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      return state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  }
  try {
    const out = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return out !== '' && !out.startsWith('Z');
  } catch {
    return false;
  }
}

/** Polls `condition` every 20 ms until it holds or `deadlineMs` passes; returns whether it held. */
export async function pollUntil(condition: () => boolean, deadlineMs: number): Promise<boolean> {
  const end = performance.now() + deadlineMs;
  while (performance.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

/** The pid of the child of this process whose command line contains `text`. */
export function findChild(text: string): number | undefined {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const [pid, ...args] = line.trim().split(/\s+/);
    if (pid !== undefined && pid !== '' && args.join(' ').includes(text)) return Number(pid);
  }
  return undefined;
}

/** How many bytes process `pid` has written so far (`wchar` of /proc/<pid>/io). */
export function writtenBytes(pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/wchar: (\d+)/.exec(io)?.[1]);
}

/** The pids of this process's children (zombies included). */
export function childPids(): number[] {
  try {
    const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' });
    return out
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** Whether `pid` is gone entirely (exited and reaped). */
export function processGone(pid: number): boolean {
  try {
    execFileSync('ps', ['-p', String(pid)], { encoding: 'utf8' });
    return false;
  } catch {
    return true;
  }
}

/**
 * Whether process group `pgid` has a live (non-zombie) member. Scans `/proc` rather than calling
 * `kill(-pgid, 0)`, which also succeeds for zombies: where PID 1 does not reap orphans (containers),
 * killed grandchildren stay zombies forever.
 */
export function groupAlive(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

/** Polls until group `pgid` has no live process, or `deadlineMs` passes; returns whether it is gone. */
export function groupGone(pgid: number, deadlineMs = 10_000): Promise<boolean> {
  return pollUntil(() => !groupAlive(pgid), deadlineMs);
}

/**
 * The live (non-zombie) processes whose command line contains `tag`, from `/proc`: a way to find
 * every process a test started, whichever group or parent it ended up in.
 */
export function processesWithTag(tag: string): number[] {
  return liveProcesses((cmdline) => cmdline.includes(tag));
}

/**
 * The live processes whose `argv[0]` is `name` (as `exec -a name` sets it): unlike
 * {@link processesWithTag}, not the shells whose scripts mention the name.
 */
export function processesNamed(name: string): number[] {
  return liveProcesses((cmdline) => cmdline.split('\0', 1)[0] === name);
}

function liveProcesses(matches: (cmdline: string) => boolean): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (!matches(cmdline)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
