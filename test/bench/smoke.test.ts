import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregate, type BenchEntry } from '../../bench/aggregate.js';
import type { RunParams, RunResult } from '../../bench/bench-result.js';
import { CATALOG, type VariantSpec } from '../../bench/catalog.js';
import { bundleSluice, measureImport } from '../../bench/import-cost.js';
import { writeLinesFile } from '../../bench/line-format.js';
import { prepareStart, timeProcess } from '../../bench/start.js';
import { summarize } from '../../bench/summary.js';
import { producerOf, runVariant } from '../../bench/variant.js';
import { testDist } from '../support/build-dist.js';
import { redisServerPath } from '../support/redis-server.js';
import { needs } from '../support/system-tools.js';

// Runs every variant of the bench catalogue once, at a tiny size, so that the bench cannot rot:
// each must report sane figures, and the summary must hold every ratio. Most variants run here, in
// this process, a few at a time; the ones that change the process for good (hiding
// `@opentelemetry/api`, registering its SDK) run in one child per kind, and the Redis ones one after
// the other in three children side by side (each variant starts its servers, a cluster six): the
// Cluster ones, the MCP ones, the others; import and start-up time fresh processes, as the runner
// does, on the package vitest's global setup built. The figures mean nothing at this size and under test load,
// so no target is checked.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'bench', 'fixtures');
const SIZES = { lines: 5000, latencyLines: 40, slowMs: 800, reps: 1, manyRuns: 10 };
const AT_ONCE = 6;

/** The child a variant needs, or `undefined` to run it here. */
const processKind = (spec: VariantSpec) =>
  spec.name.endsWith('-no-otel')
    ? 'no-otel'
    : spec.name.endsWith('-sdk')
      ? 'sdk'
      : spec.group === 'redis'
        ? (/^redis-(cluster|mcp)-/.exec(spec.name)?.[0] ?? 'redis')
        : undefined;
const CHILD_KINDS = ['redis', 'redis-cluster-', 'redis-mcp-', 'no-otel', 'sdk'];

const positive = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Runs `jobs` at most `limit` at a time. */
async function pool(jobs: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await (jobs[next++] as () => Promise<void>)();
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

describe.skipIf(!needs('linux', 'python3') || redisServerPath === undefined)(
  'the bench catalogue, once each at a tiny size',
  () => {
    let tmp: string;
    let file: string;
    const entries = new Map<string, BenchEntry>();

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'sluice-bench-smoke-'));
      file = join(tmp, 'lines.txt');
      await writeLinesFile(file, SIZES.lines);
      const results = new Map<string, RunResult[] | Error>();
      const record = async (spec: VariantSpec, measure: () => Promise<RunResult | RunResult[]>) => {
        try {
          const result = await measure();
          results.set(spec.name, Array.isArray(result) ? result : [result]);
        } catch (error) {
          results.set(spec.name, error instanceof Error ? error : new Error(String(error)));
        }
      };
      // Each variant its own folder: variants running at once write their files under the same names.
      const params = (spec: VariantSpec): RunParams => ({
        variant: spec.name,
        ...producerOf(spec, SIZES, file),
        ...SIZES,
        fixtures: FIXTURES,
        tmp: mkdirSync(join(tmp, spec.name), { recursive: true }) ?? join(tmp, spec.name),
      });
      const inChild = async (specs: readonly VariantSpec[]) => {
        const { stdout } = await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', join(ROOT, 'bench', 'child.ts'), JSON.stringify(specs.map(params))],
          { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
        );
        return JSON.parse(stdout.trim().split('\n').pop() ?? '[]') as RunResult[];
      };
      const here = CATALOG.filter(
        (spec) => processKind(spec) === undefined && spec.group !== 'import' && spec.group !== 'start',
      );
      // The children first: they take longest.
      const jobs: (() => Promise<void>)[] = [];
      for (const kind of CHILD_KINDS) {
        const specs = CATALOG.filter((spec) => processKind(spec) === kind);
        jobs.push(async () => {
          const batch = await inChild(specs).catch((error: Error) => error);
          for (const [index, spec] of specs.entries()) {
            await record(spec, async () => {
              if (batch instanceof Error) throw batch;
              return batch[index] as RunResult;
            });
          }
        });
      }
      jobs.push(async () => {
        const url = await bundleSluice(ROOT);
        for (const spec of CATALOG.filter((candidate) => candidate.group === 'import')) {
          const specifier = spec.name === 'import-sluice' ? url : spec.name.replace('import-', '');
          await record(spec, async () => ({ importMs: await measureImport(specifier, ROOT) }));
        }
      });
      jobs.push(async () => {
        const { cwd, commands } = await prepareStart(ROOT, testDist());
        for (const spec of CATALOG.filter((candidate) => candidate.group === 'start')) {
          await record(spec, () => timeProcess(commands[spec.name] as readonly string[], cwd));
        }
      });
      for (const spec of here) jobs.push(() => record(spec, () => runVariant(params(spec))));
      await pool(jobs, AT_ONCE);
      for (const spec of CATALOG) {
        const result = results.get(spec.name) ?? new Error('never ran');
        entries.set(
          spec.name,
          result instanceof Error
            ? { name: spec.name, group: spec.group, label: spec.label, error: result.message }
            : aggregate(spec, result, SIZES.lines),
        );
      }
    }, 300_000);

    afterAll(() => {
      if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
    });

    it.each(CATALOG.map((spec) => [spec.name, spec] as const))('%s reports sane figures', (name, spec) => {
      const entry = entries.get(name) as BenchEntry;
      expect(entry.error, `${name} failed`).toBeUndefined();
      if (spec.group === 'throughput') {
        // node-pty reads nothing after the exit, and so may lose the end of the output: the bench
        // reports it (docs/terminal.md, "Where the terminal comes from"); every other reader is complete.
        if (name !== 'raw-node-pty') expect(entry.complete, 'every line read').toBe(true);
        expect(positive(entry.linesPerSec)).toBe(true);
        // Every per-line variant read in-process is run a second time, warmed up (bench/variant.ts).
        if (entry.unit !== 'runs' && name !== 'mcp-http-progress') {
          expect(positive(entry.secondLinesPerSec)).toBe(true);
          expect(positive(entry.secondCpuNsPerLine)).toBe(true);
        }
      } else if (spec.group === 'latency') {
        expect(entry.samples).toBeGreaterThan(0);
        expect(positive(entry.p50Us)).toBe(true);
        expect(entry.p99Us as number).toBeGreaterThanOrEqual(entry.p50Us as number);
      } else if (spec.group === 'slow' || spec.group === 'compose' || spec.group === 'work') {
        expect(entry.consumedLines).toBeGreaterThanOrEqual(0); // the naive one may starve
        expect(positive(entry.childWrittenMB)).toBe(true);
        expect(entry.maxLeadBytes as number).toBeGreaterThan(0);
        expect(entry.rssPeakMB as number).toBeGreaterThanOrEqual(entry.rssStartMB as number);
        expect(['time', 'rss']).toContain(entry.stoppedBy);
      } else if (name === 'redis-throughput' || name === 'redis-cluster-throughput') {
        expect(entry.complete).toBe(true);
      } else if (name === 'redis-latency' || name === 'redis-cluster-latency') {
        expect(entry.samples).toBeGreaterThan(0);
      } else if (name === 'redis-memory') {
        expect(positive(entry.perLineMBPer1000Runs)).toBe(true);
      } else if (name !== 'redis-mcp-http-progress') {
        expect(positive(entry.medianMs)).toBe(true);
      }
    });

    it('pauses the producer in the bounded consumers, and the summary holds every ratio', () => {
      const all = CATALOG.map((spec) => entries.get(spec.name) as BenchEntry);
      // The bounded consumers really pause the producer, even in a short run: a lead of a few hundred
      // KiB, against MBs for the naive pipelines (which nothing pauses).
      const lead = (name: string) => entries.get(name)?.maxLeadBytes as number;
      expect(lead('slow-exec-iterable')).toBeLessThan(lead('slow-naive-rxjs'));
      expect(lead('compose-concatmap')).toBeLessThan(lead('compose-concatmap-naive'));
      expect(lead('work-concatmap')).toBeLessThan(lead('work-concatmap-rxjs'));

      const summary = summarize(all);
      const ratios = Object.entries(summary.ratios);
      expect(ratios.length).toBeGreaterThanOrEqual(20);
      for (const [name, ratio] of ratios) {
        expect(typeof ratio === 'number' && Number.isFinite(ratio), `ratio ${name} = ${ratio}`).toBe(true);
      }
      expect(summary.notRun).toEqual([]);
      expect(Object.keys(summary.targets)).toContain('kernelStreamVsExecIterableSecond');
    });

    it('reads a target whose variants were not selected as not run, not as missed', () => {
      const pushOnly = [...entries.values()].filter((entry) =>
        /^(exec-push|raw-data-split)$/.test(entry.name),
      );
      const summary = summarize(pushOnly);
      expect(summary.targets.execPushVsDataSplit?.ran).toBe(true);
      expect(summary.targets.kernelStreamVsExecIterable?.ran).toBe(false);
      expect(summary.notRun).toContain('kernelStreamVsExecIterable');
      expect(summary.missed).not.toContain('kernelStreamVsExecIterable');
    });
  },
);
