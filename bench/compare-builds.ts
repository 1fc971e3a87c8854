// Two builds side by side in ONE process: `npx tsx bench/compare-builds.ts <other checkout>
// [rounds] [variants, comma-separated] [lines]`, e.g. `npx tsx bench/compare-builds.ts /tmp/main 6
// exec-push,exec-iterable,kernel-stream,cli-json` (the other checkout needs node_modules; a
// symlink to this one's will do; docs/benchmarks.md, "Comparing a change with `main`"). Both builds' bench modules are loaded (each its own copy of
// sluice, one rxjs) and warmed up; then each round runs every variant once per build, the builds'
// order alternating from round to round, on `cat` of `lines` 60-byte lines. It prints, per variant
// and build, the CPU time per line of this process (user + system; `cat`'s is not counted) for
// every round and the median, and the median wall-clock rate. On a shared machine the CPU figures,
// compared within a round, are the steady ones. Each build runs its own bench modules, so a
// change to a variant's own code compares more than the library.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLinesFile } from './line-format.js';
import { quantile } from './stats.js';
import type { ThroughputVariant } from './throughput-raw.js';
import { timeThroughput } from './time-throughput.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const [other, roundsArg = '6', variantsArg, linesArg = '2000000'] = process.argv.slice(2);
if (other === undefined)
  throw new Error('usage: compare-builds.ts <other checkout> [rounds] [variants] [lines]');
const DEFAULT_VARIANTS = 'readline-iterator,exec-push,exec-iterable,kernel-stream,cli-json';
const variants = (variantsArg ?? DEFAULT_VARIANTS).split(',');
const builds = { this: ROOT, other: resolve(other) };

async function load(root: string): Promise<Record<string, ThroughputVariant>> {
  const warmUp = await import(`${root}/bench/warm-up.ts`);
  await warmUp.warmUpSluice();
  await warmUp.warmUpKernel();
  return {
    ...(await import(`${root}/bench/throughput-raw.ts`)).rawThroughput,
    ...(await import(`${root}/bench/throughput-sluice.ts`)).sluiceThroughput,
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'sluice-compare-'));
try {
  const file = join(tmp, 'lines.txt');
  await writeLinesFile(file, Number(linesArg));
  const loaded = { this: await load(builds.this), other: await load(builds.other) };
  const cpuNs = new Map<string, number[]>();
  const wallNs = new Map<string, number[]>();
  for (let round = 0; round < Number(roundsArg); round += 1) {
    for (const variant of variants) {
      const order = round % 2 === 0 ? (['this', 'other'] as const) : (['other', 'this'] as const);
      for (const build of order) {
        const run = loaded[build][variant];
        if (run === undefined) throw new Error(`unknown variant ${variant}`);
        const { lines, seconds, cpuSeconds } = await timeThroughput(() => run('cat', [file]));
        const key = `${variant}\t${build}`;
        cpuNs.set(key, [...(cpuNs.get(key) ?? []), (cpuSeconds * 1e9) / lines]);
        wallNs.set(key, [...(wallNs.get(key) ?? []), (seconds * 1e9) / lines]);
      }
    }
  }
  process.stdout.write(`this: ${builds.this}\nother: ${builds.other}\n`);
  process.stdout.write('variant\tbuild\tCPU ns/line per round\tmedian\twall M lines/s (median)\n');
  for (const [key, values] of cpuNs) {
    const rounds = values.map((value) => value.toFixed(0)).join(' ');
    const wall = 1e3 / quantile(wallNs.get(key) ?? [], 0.5);
    process.stdout.write(`${key}\t${rounds}\t${quantile(values, 0.5).toFixed(0)}\t${wall.toFixed(2)}\n`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
