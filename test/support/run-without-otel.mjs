// `npm run test:no-otel`: the test suite as an application without `@opentelemetry/api` runs it.
// Every process of the run — vitest's workers, and the CLI and Node children the tests start —
// imports test/support/hide-otel.mjs first (NODE_OPTIONS, with an absolute path: children run in
// other folders). The tests of tracing itself need the API and its SDK, so they are left out, and
// so is the benchmarks' smoke test (it runs variants with the SDK; the `*-no-otel` ones hide the
// API themselves).
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const hide = pathToFileURL(fileURLToPath(new URL('./hide-otel.mjs', import.meta.url))).href;
const options = [process.env.NODE_OPTIONS, `--import=${hide}`].filter(Boolean).join(' ');
// Left out through vitest.config.ts (SLUICE_TEST_EXCLUDE): vitest's own `--exclude` does not reach
// a project that sets its own `exclude`.
const leftOut = ['test/trace/**', '**/*tracing*.test.ts', 'test/bench/**'];
const vitest = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: options, SLUICE_TEST_EXCLUDE: leftOut.join(',') },
});
process.exit(vitest.status ?? 1);
