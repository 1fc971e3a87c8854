import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Prints what was skipped for want of a system tool once, at the end (test/support/system-tools.ts);
    // removes the cgroups that test processes killed with SIGKILL left (test/support/cgroup-sweep.ts);
    // builds dist/ once, unless it is newer than every source (test/support/build-dist.ts).
    globalSetup: [
      'test/support/skip-summary.ts',
      'test/support/cgroup-sweep.ts',
      'test/support/build-dist.ts',
    ],
  },
});
