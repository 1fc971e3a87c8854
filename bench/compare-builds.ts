// Two builds side by side in one run: `npx tsx bench/compare-builds.ts <other checkout> [rounds]
// [variant regex] [lines]`, e.g. `npx tsx bench/compare-builds.ts /tmp/main 5
// '^(readline-iterator|exec-iterable)$'` (the other checkout needs node_modules, a symlink will do).
// Each round runs every variant once per build, alternating, each in a fresh process
// (bench/compare-child.ts), on `cat` of `lines` 60-byte lines; it prints the median, per build and
// variant, of the lines per wall second and of the lines per CPU-second of the reading process.
// On a shared machine the CPU figure is the steadier one (docs/benchmarks.md).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writeLinesFile } from './line-format.js';
import { quantile } from './stats.js';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const [
  otherArg,
  roundsArg = '5',
  only = '^(readline-iterator|exec-push|exec-iterable|kernel-stream)$',
  linesArg,
] = process.argv.slice(2);
if (otherArg === undefined)
  throw new Error('usage: compare-builds.ts <other checkout> [rounds] [regex] [lines]');
const builds = [ROOT, resolve(otherArg)];
const variants = [
  'raw-data-split',
  'readline-iterator',
  'exec-push',
  'exec-iterable',
  'kernel-stream',
  'cli-json',
].filter((name) => new RegExp(only).test(name));
const tmp = mkdtempSync(join(tmpdir(), 'sluice-compare-'));
const file = join(tmp, 'lines.txt');
await writeLinesFile(file, Number(linesArg ?? 2_000_000));
const figures = new Map<string, { wall: number[]; cpu: number[] }>();
try {
  for (let round = 1; round <= Number(roundsArg); round += 1) {
    for (const variant of variants) {
      for (const build of builds) {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', join(ROOT, 'bench', 'compare-child.ts'), build, variant, file],
          { cwd: build, maxBuffer: 1 << 20 },
        );
        const { lines, seconds, cpuSeconds } = JSON.parse(stdout.trim().split('\n').pop() as string);
        const key = `${variant}\t${build}`;
        const entry = figures.get(key) ?? { wall: [], cpu: [] };
        entry.wall.push(lines / seconds / 1e6);
        entry.cpu.push(lines / cpuSeconds / 1e6);
        figures.set(key, entry);
        process.stderr.write(
          `round ${round} ${variant} ${build}: ${(lines / seconds / 1e6).toFixed(2)} M/s wall, ${(lines / cpuSeconds / 1e6).toFixed(2)} M/CPU-s\n`,
        );
      }
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write('variant\tbuild\tM lines/s wall (median)\tM lines/CPU-s (median)\n');
for (const [key, { wall, cpu }] of figures) {
  process.stdout.write(`${key}\t${quantile(wall, 0.5).toFixed(2)}\t${quantile(cpu, 0.5).toFixed(2)}\n`);
}
