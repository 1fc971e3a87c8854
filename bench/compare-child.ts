// One throughput run of one variant of the build at `root`, in a fresh process, for
// bench/compare-builds.ts: `tsx bench/compare-child.ts <root> <variant> <lines file>`. Prints one
// JSON line: lines, wall seconds and the CPU seconds (user + system) of this process while it read
// — `cat`'s are not counted. With PROFILE=<file>, also writes a CPU profile of the read alone.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { ThroughputVariant } from './throughput-raw.js';

const [root, variant = '', file = ''] = process.argv.slice(2);
if (/^(exec-|kernel-|cli-)/.test(variant)) await (await import(`${root}/bench/warm-up.ts`)).warmUpSluice();
if (variant.startsWith('kernel-')) await (await import(`${root}/bench/warm-up.ts`)).warmUpKernel();
const run: ThroughputVariant | undefined =
  (await import(`${root}/bench/throughput-raw.ts`)).rawThroughput[variant] ??
  (await import(`${root}/bench/throughput-sluice.ts`)).sluiceThroughput[variant];
if (run === undefined) throw new Error(`unknown variant ${variant}`);
const profile = process.env.PROFILE;
const session = profile === undefined ? undefined : new Session();
if (session !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const cpu = process.cpuUsage();
const started = performance.now();
const lines = await run('cat', [file]);
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
if (session !== undefined && profile !== undefined) {
  writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
}
process.stdout.write(`${JSON.stringify({ lines, seconds, cpuSeconds: (used.user + used.system) / 1e6 })}\n`);
process.exit(0);
