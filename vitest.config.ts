import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Prints what was skipped for want of a system tool once, at the end (test/support/system-tools.ts).
    globalSetup: ['test/support/skip-summary.ts'],
  },
});
