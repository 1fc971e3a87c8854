import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const INCLUDE = ['test/**/*.test.ts', 'examples/**/*.test.ts'];

// Test files that each get a fresh process, because they change what the process holds for every
// module in it — a global OpenTelemetry API provider or context manager (the tracing tests), a
// mocked module (vi.mock) — or check what the process itself holds: its memory, which garbage left
// by another file would blur, or every cgroup it made, which includes another file's. Every other
// file shares its worker, and the modules loaded in it, with the files run before it there: a fresh
// process per file costs more than a second of CPU, more than most files' own tests.
const ISOLATED = [
  'test/trace/**/*.test.ts',
  '**/*tracing*.test.ts',
  'test/sources/exec-rlimits.test.ts',
  'test/sources/exec-cgroup.test.ts',
  'test/kernel/tools/exec-tool-containment.test.ts',
  'test/web/memory.test.ts',
  'test/adapters/backpressure.test.ts',
  'test/redis/redis-failures.test.ts',
  'test/core/queue/ring-queue.test.ts',
  'test/kernel/protocol/frame-decoder.test.ts',
  'test/operators/work-per-line.test.ts',
  'test/core/demand-compositions.test.ts',
  'test/sources/exec-tty.test.ts',
];

// Globs every project leaves out (comma-separated): `npm run test:no-otel` leaves out the tests that
// need the OpenTelemetry API (test/support/run-without-otel.mjs).
const LEFT_OUT = (process.env.SLUICE_TEST_EXCLUDE ?? '').split(',').filter((glob) => glob !== '');

// Most tests wait on child processes, servers and timers rather than compute: a worker per core and
// one more keeps both busy (vitest's default on a 2-core machine is one worker). VITEST_MAX_WORKERS
// sets another number.
const WORKERS = availableParallelism() + 1;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: WORKERS,
    // Prints what was skipped for want of a system tool once, at the end (test/support/system-tools.ts);
    // removes the cgroups that test processes killed with SIGKILL left (test/support/cgroup-sweep.ts);
    // builds the package once, unless dist/ is newer than every source (test/support/build-dist.ts);
    // starts `python3` without a version manager's shim (test/support/python-on-path.ts).
    globalSetup: [
      'test/support/skip-summary.ts',
      'test/support/cgroup-sweep.ts',
      'test/support/build-dist.ts',
      'test/support/python-on-path.ts',
    ],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: INCLUDE,
          exclude: [...configDefaults.exclude, ...ISOLATED, ...LEFT_OUT],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, exclude: [...configDefaults.exclude, ...LEFT_OUT] },
      },
    ],
  },
});
