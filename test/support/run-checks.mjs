// `npm test` and `npm run test:package`: every check of the project, each step timed.
//
//   node test/support/run-checks.mjs [step…]   (no step: all of them)
//
// Steps: typecheck, lint, build, package (the checks of the package as published, on what `build`
// wrote), unit (vitest). The steps that do not depend on each other run side by side — typecheck,
// lint, and build followed by the package checks — each on its own core where there is one; their
// output is printed when they end (all of it if they fail). The test suite runs last, alone, on
// the `dist` that `build` wrote (vitest's global setup does not build it again:
// test/support/build-dist.ts). The first step that fails stops the run, and its exit code is the
// run's.
import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE_CHECKS = [
  'publint --strict',
  'attw --pack . --profile node16',
  'node test/package/check-dist-web.mjs',
  'node test/package/check-dist-exports.mjs',
  'node test/package/check-consumer.mjs',
  'node test/package/check-install.mjs',
];
// typecheck, lint, build and unit are package.json's scripts of those names.
const STEPS = {
  typecheck: ['npm run --silent typecheck'],
  lint: ['npm run --silent lint'],
  build: ['npm run --silent build'],
  package: PACKAGE_CHECKS,
  unit: ['npm run --silent test:unit'],
};
const env = { ...process.env, PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(delimiter) };
const times = [];

/** Runs one shell command in the project; resolves its exit code and output (inherited if `live`). */
function run(command, live) {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: ROOT, env, shell: true, stdio: live ? 'inherit' : 'pipe' });
    let output = '';
    child.stdout?.on('data', (data) => {
      output += data;
    });
    child.stderr?.on('data', (data) => {
      output += data;
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** Runs the commands of one step side by side; throws (with the step's exit code) if one fails. */
async function step(name, { live = false } = {}) {
  const started = performance.now();
  if (live) console.log(`\n--- ${name}: ${STEPS[name].join(' · ')}`);
  const results = await Promise.all(STEPS[name].map((command) => run(command, live)));
  const seconds = (performance.now() - started) / 1000;
  times.push([name, seconds]);
  const failed = results.find((result) => result.code !== 0);
  const mark = failed ? '✗' : '✓';
  console.log(`${mark} ${name} (${seconds.toFixed(1)} s)`);
  if (!live && (failed || process.env.SLUICE_CHECKS_VERBOSE)) {
    for (const result of results) if (result.output.trim() !== '') console.log(result.output.trimEnd());
  }
  if (failed) throw Object.assign(new Error(`${name} failed`), { exitCode: failed.code });
}

/** The steps asked for, in their order: the independent ones side by side, the test suite last. */
async function main(asked) {
  const wants = (name) => asked.length === 0 || asked.includes(name);
  const unknown = asked.filter((name) => !(name in STEPS));
  if (unknown.length > 0)
    throw Object.assign(new Error(`unknown step: ${unknown.join(', ')}`), { exitCode: 2 });
  const lanes = [
    wants('typecheck') && step('typecheck'),
    wants('lint') && step('lint'),
    (async () => {
      if (wants('build')) await step('build');
      if (wants('package')) await step('package');
    })(),
  ];
  const settled = await Promise.allSettled(lanes);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  if (wants('unit')) await step('unit', { live: true });
}

const started = performance.now();
try {
  await main(process.argv.slice(2));
} catch (error) {
  console.error(`\n${error.message}`);
  process.exitCode = error.exitCode ?? 1;
} finally {
  const total = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `\nsteps: ${times.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ')}; wall clock ${total} s`,
  );
}
