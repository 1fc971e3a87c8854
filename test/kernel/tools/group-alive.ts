import { readdirSync, readFileSync } from 'node:fs';

/** Whether a live (non-zombie) process of group `pgid` exists: scans `/proc`, since `kill(-pgid, 0)` also sees zombies. */
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
export async function groupGone(pgid: number, deadlineMs = 10_000): Promise<boolean> {
  const end = performance.now() + deadlineMs;
  while (performance.now() < end) {
    if (!groupAlive(pgid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !groupAlive(pgid);
}
