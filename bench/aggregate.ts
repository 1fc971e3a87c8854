import type { RunResult, ThroughputFigures } from './bench-result.js';
import type { VariantSpec } from './catalog.js';
import { LINE_BYTES } from './line-format.js';
import { quantile, spread } from './stats.js';

/** One line of the `--json` output: a variant's figures over all its runs. */
export interface BenchEntry {
  readonly name: string;
  readonly group: VariantSpec['group'];
  readonly label: string;
  /** Set when a run failed; the figures are then missing. */
  readonly error?: string;
  readonly [figure: string]: unknown;
}

const MB = 1024 * 1024;
const round = (value: number, digits = 0) => Number(value.toFixed(digits));

/**
 * Reduces the runs of one variant to its figures: lines/s median and min–max (and whether every
 * run read every line; with the same figures of the second runs in the process, when it has them), latency p50/p99/max, slow-consumer lead and RSS, cancel and import times, start-up wall and CPU times.
 *
 * @example
 * ```ts
 * aggregate(spec, [{ lines: 1000, seconds: 0.01 }], 1000).linesPerSec; // 100000
 * ```
 */
export function aggregate(spec: VariantSpec, runs: readonly RunResult[], expectedLines: number): BenchEntry {
  const base = { name: spec.name, group: spec.group, label: spec.label };
  if (spec.group === 'throughput') {
    const { rates, cpuNs } = perLine(runs);
    const { median, min, max } = spread(rates);
    const expected = (run: RunResult) => run.expectedLines ?? expectedLines;
    const complete = runs.every(
      (run) =>
        run.lines === expected(run) && (run.second === undefined || run.second.lines === expected(run)),
    );
    return {
      ...base,
      producer: spec.producer,
      ...(spec.unit === undefined ? {} : { unit: spec.unit }),
      runs: runs.length,
      linesPerSec: round(median),
      linesPerSecMin: round(min),
      linesPerSecMax: round(max),
      // The reader's CPU time per line (per run, for the `runs` unit), in ns.
      cpuNsPerLine: round(quantile(cpuNs, 0.5), 1),
      complete,
      // In the order of the rounds, for the ratios of one variant to another in the same round (bench/summary.ts).
      linesPerSecRuns: rates.map((rate) => round(rate, 1)),
      cpuNsPerLineRuns: cpuNs.map((ns) => round(ns, 1)),
      ...secondRuns(runs),
    };
  }
  if (spec.group === 'latency') {
    const samples = runs.flatMap((run) => run.latenciesUs ?? []);
    return {
      ...base,
      samples: samples.length,
      p50Us: round(quantile(samples, 0.5), 1),
      p99Us: round(quantile(samples, 0.99), 1),
      maxUs: round(Math.max(...samples), 1),
    };
  }
  if (spec.group === 'slow' || spec.group === 'compose' || spec.group === 'work') {
    const slow = runs[0]?.slow;
    if (slow === undefined) return { ...base, error: 'no figures' };
    return {
      ...base,
      maxLeadBytes: slow.maxLeadBytes,
      maxLeadLines: Math.round(slow.maxLeadBytes / LINE_BYTES),
      consumedLines: slow.consumedLines,
      childWrittenMB: round(slow.childWrittenBytes / MB, 2),
      rssStartMB: round(slow.rssStartBytes / MB, 1),
      rssPeakMB: round(slow.rssPeakBytes / MB, 1),
      rssGrowthMB: round((slow.rssPeakBytes - slow.rssStartBytes) / MB, 1),
      stoppedBy: slow.stoppedBy,
      seconds: round(slow.seconds, 2),
    };
  }
  if (spec.group === 'redis') {
    const run = runs[0];
    if (run?.redisMemory !== undefined) {
      const { runs: count, linesPerRun, batchedBytes, perLineBytes } = run.redisMemory;
      return {
        ...base,
        runs: count,
        linesPerRun,
        batchedMBPer1000Runs: round(((batchedBytes / count) * 1000) / MB, 2),
        perLineMBPer1000Runs: round(((perLineBytes / count) * 1000) / MB, 2),
        batchedBytesPerLine: round(batchedBytes / (count * linesPerRun), 1),
        perLineBytesPerLine: round(perLineBytes / (count * linesPerRun), 1),
      };
    }
    if (run?.cancelMs !== undefined) {
      const { median, max } = spread(run.cancelMs);
      return { ...base, reps: run.cancelMs.length, medianMs: round(median, 2), maxMs: round(max, 2) };
    }
    if (run?.latenciesUs !== undefined) {
      const samples = run.latenciesUs;
      return {
        ...base,
        samples: samples.length,
        p50Us: round(quantile(samples, 0.5), 1),
        p99Us: round(quantile(samples, 0.99), 1),
        maxUs: round(Math.max(...samples), 1),
      };
    }
    return {
      ...base,
      linesPerSec: round((run?.lines ?? 0) / (run?.seconds ?? Number.NaN)),
      lines: run?.lines ?? 0,
      complete: run !== undefined && run.lines === run.expectedLines,
    };
  }
  if (spec.group === 'cancel') {
    const times = runs.flatMap((run) => run.cancelMs ?? []);
    const { median, max } = spread(times);
    return { ...base, reps: times.length, medianMs: round(median, 1), maxMs: round(max, 1) };
  }
  if (spec.group === 'start') {
    const wall = spread(runs.map((run) => run.wallMs ?? Number.NaN));
    const cpu = spread(runs.map((run) => run.cpuMs ?? Number.NaN));
    return {
      ...base,
      reps: runs.length,
      medianMs: round(wall.median, 1),
      minMs: round(wall.min, 1),
      medianCpuMs: round(cpu.median, 1),
      // In the order of the rounds, for the ratios of one round to the other (bench/summary.ts).
      wallMsRuns: runs.map((run) => round(run.wallMs ?? Number.NaN, 1)),
    };
  }
  const times = runs.map((run) => run.importMs ?? Number.NaN);
  const { median, min } = spread(times);
  return { ...base, reps: times.length, medianMs: round(median, 1), minMs: round(min, 1) };
}

/**
 * The figures of the second runs in the same process (bench/child.ts), when the variant has them:
 * the median lines/s and CPU per line once V8 has optimized the path, and the rates per round.
 */
function secondRuns(runs: readonly RunResult[]): Record<string, number | number[]> {
  const seconds = runs.flatMap((run) => (run.second === undefined ? [] : [run.second]));
  if (seconds.length === 0) return {};
  const { rates, cpuNs } = perLine(seconds);
  return {
    secondLinesPerSec: round(quantile(rates, 0.5)),
    secondCpuNsPerLine: round(quantile(cpuNs, 0.5), 1),
    secondLinesPerSecRuns: rates.map((rate) => round(rate, 1)),
  };
}

/** Lines/s and the reader's CPU ns per line of each throughput run (`NaN` where a figure is missing). */
function perLine(runs: readonly Partial<ThroughputFigures>[]): { rates: number[]; cpuNs: number[] } {
  return {
    rates: runs.map((run) => (run.lines ?? 0) / (run.seconds ?? Number.NaN)),
    cpuNs: runs.map((run) => ((run.cpuSeconds ?? Number.NaN) * 1e9) / (run.lines || Number.NaN)),
  };
}
