import type { ExecUsage } from './exec-usage.js';

/**
 * What a run used, in a few words for people — the CLI's summary line and the live page's footer
 * show it: `cpu 0.84s (0.80s user, 0.04s system)`, then where the controllers gave them
 * `peak memory 12.3 MiB` and `at most 3 processes`. `null` usage (a run without a cgroup) gives `''`.
 */
export function formatUsage(usage: ExecUsage | null | undefined): string {
  if (usage === null || usage === undefined) return '';
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)}s`;
  const parts = [
    `cpu ${seconds(usage.cpuUserMs + usage.cpuSystemMs)} (${seconds(usage.cpuUserMs)} user, ${seconds(usage.cpuSystemMs)} system)`,
  ];
  if (usage.memoryPeakBytes !== undefined) {
    parts.push(`peak memory ${(usage.memoryPeakBytes / 1024 / 1024).toFixed(1)} MiB`);
  }
  if (usage.pidsPeak !== undefined) parts.push(`at most ${usage.pidsPeak} processes`);
  return parts.join(' · ');
}
