import { describe, expect, it } from 'vitest';
import { formatUsage } from '../../src/web/page/describe-end.js';

describe('formatUsage: what a run used, for people', () => {
  it('CPU time always, peak memory and processes where the controllers gave them', () => {
    expect(formatUsage({ cpuUserMs: 800, cpuSystemMs: 40 })).toBe('cpu 0.84s (0.80s user, 0.04s system)');
    expect(
      formatUsage({ cpuUserMs: 1.5, cpuSystemMs: 0, memoryPeakBytes: 3 * 1024 * 1024, pidsPeak: 1 }),
    ).toBe('cpu 0.00s (0.00s user, 0.00s system) · peak memory 3.0 MiB · at most 1 processes');
  });

  it('nothing without a cgroup', () => {
    expect(formatUsage(null)).toBe('');
    expect(formatUsage(undefined)).toBe('');
  });
});
