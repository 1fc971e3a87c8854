// `npm test` and `npm run test:package`: every check of the project, each step timed.
//
//   node test/support/run-checks.mjs [step…]   (no step: all of them)
//
// Steps: typecheck, lint, build (the package's code), types (its type declarations), package (the
// checks of the package as published, one after another), unit (vitest). Each step starts as soon
// as what it needs is done, beside the others: typecheck, lint and build at once; once the code is
// built, the test suite (on that `dist`: vitest's global setup does not build it again,
// test/support/build-dist.ts) and, beside it, the types and then the package checks. The test
// suite prints as it goes; every other step prints a line when it ends (all of its output if it
// fails). The tools that only compute (tsc for typecheck and types) run at a lower priority, so
// that the tests' child processes, servers and browsers are not kept waiting by them. A step that
// fails stops the steps that need it, and its exit code is the run's; the others run to their end.
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
const BUILD = 'tsx test/support/build-dist.ts';
// typecheck, lint and unit are package.json's scripts of those names; build and types are the two
// halves of its `build` (tsup with the project's config).
const STEPS = {
  typecheck: ['nice -n 10 npm run --silent typecheck'],
  lint: ['npm run --silent lint'],
  build: [`${BUILD} code`],
  types: [`nice -n 10 ${BUILD} types`],
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

/**
 * Runs the commands of one step one after another (the package checks pack, install and run
 * snippets under time limits: side by side they would share the cores with each other too);
 * throws (with the step's exit code) if one fails.
 */
async function step(name, { live = false } = {}) {
  const started = performance.now();
  if (live) console.log(`\n--- ${name}: ${STEPS[name].join(' · ')}`);
  const results = [];
  for (const command of STEPS[name]) results.push(await run(command, live));
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

/** The steps asked for, each as soon as the steps it needs are done (see the top of this file). */
async function main(asked) {
  const wants = (name) => asked.length === 0 || asked.includes(name);
  const unknown = asked.filter((name) => !(name in STEPS));
  if (unknown.length > 0)
    throw Object.assign(new Error(`unknown step: ${unknown.join(', ')}`), { exitCode: 2 });
  const start = (name, options) => (wants(name) ? step(name, options) : Promise.resolve());
  const built = start('build');
  const lanes = [
    start('typecheck'),
    start('lint'),
    built.then(() => start('unit', { live: true })),
    built.then(() => start('types')).then(() => start('package')),
  ];
  const settled = await Promise.allSettled(lanes);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
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
