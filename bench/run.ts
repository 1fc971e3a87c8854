// The benchmark runner: `npm run bench` (a table) or `npm run bench -- --json` (one JSON object
// per line, then a `{"summary": …}` line). Every run of every variant is a fresh Node process
// (bench/child.ts under tsx), so RSS and JIT state never carry over; runs of the throughput
// variants are interleaved round-robin so that machine noise spreads evenly over them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pythonOnPath from '../test/support/python-on-path.js';
import { aggregate, type BenchEntry } from './aggregate.js';
import type { RunParams, RunResult } from './bench-result.js';
import { CATALOG, type VariantSpec } from './catalog.js';
import { parseFlags } from './flags.js';
import { bundleSluice, measureImport } from './import-cost.js';
import { writeLinesFile } from './line-format.js';
import { prepareStart, timeProcess } from './start.js';
import { summarize } from './summary.js';
import { renderTable } from './table.js';
import { producerOf } from './variant.js';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BENCH);
const FIXTURES = join(BENCH, 'fixtures');
const noop = () => undefined;

function machine(): string {
  const model = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
  return `${cpus().length} × ${model ?? 'unknown CPU'}, Node ${process.version}, ${process.platform}`;
}

/** Runs `bench/child.ts` with `params` in a fresh node (tsx) and parses its last stdout line. */
function runChild(params: RunParams): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(BENCH, 'child.ts'), JSON.stringify(params)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as RunResult);
      else reject(new Error(`exit ${code}: ${err.trim().split('\n').slice(0, 3).join(' / ') || out.trim()}`));
    });
  });
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const selected = CATALOG.filter((spec) => flags.only === undefined || flags.only.test(spec.name));
  const tmp = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
  const log = (message: string) => {
    if (!flags.json) process.stderr.write(`${message}\n`);
  };
  // The floods and pacers are python3 children: started without a version manager's shim, as the tests do.
  const restorePath = pythonOnPath();
  try {
    const file = join(tmp, 'lines.txt');
    if (selected.some((spec) => spec.group === 'throughput' && spec.producer === 'cat')) {
      log(`writing ${flags.lines} lines of 60 bytes…`);
      await writeLinesFile(file, flags.lines);
    }
    const results = new Map<string, RunResult[]>();
    const failures = new Map<string, string>();
    const record = async (spec: VariantSpec, measure: () => Promise<RunResult> | RunResult) => {
      if (failures.has(spec.name)) return;
      try {
        const result = await measure();
        results.set(spec.name, [...(results.get(spec.name) ?? []), result]);
      } catch (error) {
        failures.set(spec.name, error instanceof Error ? error.message : String(error));
      }
    };
    const inChild = (spec: VariantSpec) => () =>
      runChild({
        variant: spec.name,
        ...producerOf(spec, flags, file),
        lines: flags.lines,
        slowMs: flags.slowMs,
        reps: flags.reps,
        latencyLines: flags.latencyLines,
        fixtures: FIXTURES,
        tmp,
      });
    // The jobs, in order: throughput runs round-robin, then one run of each other variant, then
    // the import measurements (each a fresh plain `node`), then the start-up rounds.
    const jobs: (() => Promise<void>)[] = [];
    const throughput = selected.filter((spec) => spec.group === 'throughput');
    for (let run = 1; run <= flags.runs; run++) {
      for (const spec of throughput) jobs.push(() => record(spec, inChild(spec)));
    }
    for (const spec of selected) {
      if (
        spec.group === 'latency' ||
        spec.group === 'slow' ||
        spec.group === 'compose' ||
        spec.group === 'work' ||
        spec.group === 'cancel' ||
        spec.group === 'redis'
      ) {
        jobs.push(() => record(spec, inChild(spec)));
      }
    }
    const imports = selected.filter((spec) => spec.group === 'import');
    if (imports.length > 0) {
      const sluiceUrl = await bundleSluice(ROOT);
      for (let rep = 0; rep < flags.reps; rep++) {
        for (const spec of imports) {
          const specifier =
            spec.name === 'import-rxjs' ? 'rxjs' : spec.name === 'import-execa' ? 'execa' : sluiceUrl;
          jobs.push(() => record(spec, async () => ({ importMs: await measureImport(specifier, ROOT) })));
        }
      }
    }
    // Start-up: whole processes, one round of every variant at a time (the first round only warms
    // the disk cache, and Node's compile cache where it has one), each round in a rotated order.
    const starts = selected.filter((spec) => spec.group === 'start');
    if (starts.length > 0) {
      log('building the package for the start-up measurements…');
      const { cwd, commands } = await prepareStart(ROOT);
      for (let round = 0; round <= flags.startRuns; round++) {
        for (let index = 0; index < starts.length; index++) {
          const spec = starts[(index + round) % starts.length] as VariantSpec;
          const command = commands[spec.name] as readonly string[];
          if (round === 0) {
            // A failure shows in the measured rounds.
            jobs.push(() => timeProcess(command, cwd).then(noop, noop));
          } else jobs.push(() => record(spec, () => timeProcess(command, cwd)));
        }
      }
    }
    let done = 0;
    let nextJob = 0;
    const worker = async () => {
      while (nextJob < jobs.length) {
        const job = jobs[nextJob++] as () => Promise<void>;
        await job();
        done += 1;
        if (done % 5 === 0 || done === jobs.length) log(`${done}/${jobs.length} runs done`);
      }
    };
    await Promise.all(Array.from({ length: flags.parallel }, worker));
    const entries: BenchEntry[] = selected.map((spec) => {
      const failure = failures.get(spec.name);
      if (failure !== undefined)
        return { name: spec.name, group: spec.group, label: spec.label, error: failure };
      return aggregate(spec, results.get(spec.name) ?? [], flags.lines);
    });
    const summary = summarize(entries);
    const where = machine();
    const json = [...entries, { summary: { machine: where, ...summary } }]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join('');
    if (flags.jsonFile !== undefined) writeFileSync(flags.jsonFile, json);
    if (flags.json) {
      process.stdout.write(json);
    } else {
      process.stdout.write(`${renderTable(entries, summary, where)}\n`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    restorePath?.();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
