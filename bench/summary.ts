import type { BenchEntry } from './aggregate.js';
import { CANCEL_FORCE_KILL_MS } from './cancel.js';
import { LINE_BYTES } from './line-format.js';
import { SLOW_BUFFER_SIZE } from './slow-consumer.js';
import { quantile } from './stats.js';

/** One target of the bench (docs/benchmarks.md), as a ratio that must be at least (`>=`) or at most (`<=`) `limit`. */
export interface TargetCheck {
  readonly ratio: number | null;
  readonly op: '>=' | '<=';
  readonly limit: number;
  /** False when a variant it compares was not run (`--only`): the target is then neither met nor missed. */
  readonly ran: boolean;
  readonly met: boolean;
  readonly means: string;
}

/** The last `--json` line: every ratio of the run, and the targets checked against them. */
export interface BenchSummary {
  readonly ratios: Record<string, number | null>;
  readonly targets: Record<string, TargetCheck>;
  /** Targets whose variants ran and whose ratio misses its limit (or is missing: a variant failed). */
  readonly missed: readonly string[];
  /** Targets left out because a variant they compare was not selected. */
  readonly notRun: readonly string[];
}

/** A figure or ratio: `null` when a variant ran but gave none (it failed), `undefined` when it did not run. */
type Figure = number | null | undefined;

/** The slow consumer's allowed lead: `bufferSize` chunks + 128 KiB. */
export const LEAD_LIMIT_BYTES = SLOW_BUFFER_SIZE * LINE_BYTES + 128 * 1024;
/**
 * A composition's allowed lead: `bufferSize` chunks + 384 KiB, what the transport itself holds
 * (the socketpair, Python's block, Node's last read, exec's split lines; docs/backpressure.md).
 */
export const COMPOSE_LEAD_LIMIT_BYTES = SLOW_BUFFER_SIZE * LINE_BYTES + 384 * 1024;
/**
 * A work-per-line pipeline's allowed lead: the largest operator bound (`mergeMap(…, 4)`: 4 + 16
 * values) + 384 KiB of transport; the consumer (a plain `subscribe()`) holds nothing.
 */
export const WORK_LEAD_LIMIT_BYTES = 20 * LINE_BYTES + 384 * 1024;
const RSS_LIMIT_MB = 20;

/**
 * The hot path's throughput targets (docs/benchmarks.md): a sluice path against its baseline in the
 * same run, checked on the first runs and on the second runs in the same process (bench/child.ts).
 */
const HOT_PATH = [
  {
    name: 'execPushVsDataSplit',
    variant: 'exec-push',
    baseline: 'raw-data-split',
    limit: 1.2,
    means: "exec push ≥ 1.2 × 'data'+split",
  },
  {
    name: 'execIterableVsReadlineIterator',
    variant: 'exec-iterable',
    baseline: 'readline-iterator',
    limit: 1.3,
    means: 'toAsyncIterable ≥ 1.3 × readline iterator',
  },
  {
    name: 'kernelStreamVsExecIterable',
    variant: 'kernel-stream',
    baseline: 'exec-iterable',
    limit: 0.6,
    means: 'kernel host + bridge ≥ 0.6 × exec → toAsyncIterable',
  },
  {
    name: 'cliJsonVsExecIterable',
    variant: 'cli-json',
    baseline: 'exec-iterable',
    limit: 0.35,
    means: 'sluice exec --json | wc -l ≥ 0.35 × exec → toAsyncIterable',
  },
] as const;

/**
 * Computes the ratios between variants of the same run and checks the targets (docs/benchmarks.md).
 * A ratio whose variants did not run (or failed) is `null`; its target counts as missed when a
 * variant failed, and as not run when a variant was not selected.
 *
 * @example
 * ```ts
 * summarize(entries).ratios.execPushVsDataSplit; // e.g. 0.9
 * ```
 */
export function summarize(entries: readonly BenchEntry[]): BenchSummary {
  const figure = (name: string, key: string): Figure => {
    const entry = entries.find((candidate) => candidate.name === name);
    if (entry === undefined) return undefined;
    const value = entry[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  };
  const div = (a: Figure, b: Figure): Figure =>
    a === undefined || b === undefined
      ? undefined
      : a === null || b === null || b === 0
        ? null
        : Number((a / b).toFixed(3));
  const rate = (name: string) => figure(name, 'linesPerSec');
  const secondRate = (name: string) => figure(name, 'secondLinesPerSec');
  const diff = (a: Figure, b: Figure): Figure =>
    a === undefined || b === undefined ? undefined : a === null || b === null ? null : a - b;
  // The median over rounds of one variant's wall time (or another per-round figure) over another's
  // in the same round: rounds run back to back, so a machine that gets busier or quieter shifts
  // both sides alike.
  const paired = (a: string, b: string, key = 'wallMsRuns'): Figure => {
    const [entryA, entryB] = [a, b].map((name) => entries.find((entry) => entry.name === name));
    if (entryA === undefined || entryB === undefined) return undefined;
    const [left, right] = [entryA[key], entryB[key]];
    if (!Array.isArray(left) || !Array.isArray(right) || left.length === 0) return null;
    const ratios = left.flatMap((value, index) => {
      const other = right[index];
      return typeof value === 'number' && typeof other === 'number' && other > 0 ? [value / other] : [];
    });
    return ratios.length === 0 ? null : Number(quantile(ratios, 0.5).toFixed(3));
  };

  const figures: Record<string, Figure> = {
    ...Object.fromEntries(
      HOT_PATH.flatMap(({ name, variant, baseline }) => [
        [name, div(rate(variant), rate(baseline))],
        [`${name}Second`, div(secondRate(variant), secondRate(baseline))],
      ]),
    ),
    execPushVsReadlineEvents: div(rate('exec-push'), rate('readline-events')),
    execPushVsRawBytes: div(rate('exec-push'), rate('raw-bytes')),
    execIterableVsExecaIterator: div(rate('exec-iterable'), rate('execa-iterator')),
    execOnChunkVsReadlineIterator: div(rate('exec-onchunk'), rate('readline-iterator')),
    execCoalesceVsDataSplit: div(rate('exec-coalesce'), rate('raw-data-split')),
    mcpProgressVsKernelStream: div(rate('mcp-progress'), rate('kernel-stream')),
    mcpProgressVsExecPush: div(rate('mcp-progress'), rate('exec-push')),
    // Tracing's cost (docs/tracing.md): with @opentelemetry/api and no SDK, or the SDK, against
    // without the API; lines/s (runs/s) ratios and the reader's CPU time per line (per run).
    execRunsApiVsNoApi: paired('exec-runs', 'exec-runs-no-otel', 'linesPerSecRuns'),
    execRunsSdkVsNoApi: paired('exec-runs-sdk', 'exec-runs-no-otel', 'linesPerSecRuns'),
    execRunsCpuApiVsNoApi: paired('exec-runs', 'exec-runs-no-otel', 'cpuNsPerLineRuns'),
    execRunsCpuSdkVsNoApi: paired('exec-runs-sdk', 'exec-runs-no-otel', 'cpuNsPerLineRuns'),
    execIterableApiVsNoApi: paired('exec-iterable', 'exec-iterable-no-otel', 'linesPerSecRuns'),
    execIterableCpuApiVsNoApi: paired('exec-iterable', 'exec-iterable-no-otel', 'cpuNsPerLineRuns'),
    execPushApiVsNoApi: paired('exec-push', 'exec-push-no-otel', 'linesPerSecRuns'),
    nodeProducerExecPushVsDataSplit: div(rate('exec-push@node'), rate('raw-data-split@node')),
    slowExecIterableLeadVsLimit: div(figure('slow-exec-iterable', 'maxLeadBytes'), LEAD_LIMIT_BYTES),
    slowExecOnChunkLeadVsLimit: div(figure('slow-exec-onchunk', 'maxLeadBytes'), LEAD_LIMIT_BYTES),
    slowKernelStreamLeadVsLimit: div(figure('slow-kernel-stream', 'maxLeadBytes'), LEAD_LIMIT_BYTES),
    slowExecIterableRssVsLimit: div(figure('slow-exec-iterable', 'rssGrowthMB'), RSS_LIMIT_MB),
    slowExecOnChunkRssVsLimit: div(figure('slow-exec-onchunk', 'rssGrowthMB'), RSS_LIMIT_MB),
    slowKernelStreamRssVsLimit: div(figure('slow-kernel-stream', 'rssGrowthMB'), RSS_LIMIT_MB),
    slowTransportFloorVsLimit: div(figure('slow-no-read', 'maxLeadBytes'), LEAD_LIMIT_BYTES),
    slowExecIterableLeadVsFloor: div(
      figure('slow-exec-iterable', 'maxLeadBytes'),
      figure('slow-no-read', 'maxLeadBytes'),
    ),
    slowNaiveRssVsLimit: div(figure('slow-naive-rxjs', 'rssGrowthMB'), RSS_LIMIT_MB),
    composeConcatMapLeadVsLimit: div(figure('compose-concatmap', 'maxLeadBytes'), COMPOSE_LEAD_LIMIT_BYTES),
    composeConcatMapRssVsLimit: div(figure('compose-concatmap', 'rssGrowthMB'), RSS_LIMIT_MB),
    composeMergeMapLeadVsLimit: div(figure('compose-mergemap', 'maxLeadBytes'), COMPOSE_LEAD_LIMIT_BYTES),
    composeMergeMapRssVsLimit: div(figure('compose-mergemap', 'rssGrowthMB'), RSS_LIMIT_MB),
    composeShareLeadVsLimit: div(figure('compose-share', 'maxLeadBytes'), COMPOSE_LEAD_LIMIT_BYTES),
    composeShareRssVsLimit: div(figure('compose-share', 'rssGrowthMB'), RSS_LIMIT_MB),
    composeNaiveConcatMapLeadVsSluice: div(
      figure('compose-concatmap-naive', 'maxLeadBytes'),
      figure('compose-concatmap', 'maxLeadBytes'),
    ),
    workConcatMapLeadVsLimit: div(figure('work-concatmap', 'maxLeadBytes'), WORK_LEAD_LIMIT_BYTES),
    workConcatMapRssVsLimit: div(figure('work-concatmap', 'rssGrowthMB'), RSS_LIMIT_MB),
    workMergeMapLeadVsLimit: div(figure('work-mergemap', 'maxLeadBytes'), WORK_LEAD_LIMIT_BYTES),
    workMergeMapRssVsLimit: div(figure('work-mergemap', 'rssGrowthMB'), RSS_LIMIT_MB),
    workZipLeadVsLimit: div(figure('work-zip', 'maxLeadBytes'), WORK_LEAD_LIMIT_BYTES),
    workZipRssVsLimit: div(figure('work-zip', 'rssGrowthMB'), RSS_LIMIT_MB),
    workRxjsConcatMapLeadVsSluice: div(
      figure('work-concatmap-rxjs', 'maxLeadBytes'),
      figure('work-concatmap', 'maxLeadBytes'),
    ),
    workRxjsMergeMapLeadVsSluice: div(
      figure('work-mergemap-rxjs', 'maxLeadBytes'),
      figure('work-mergemap', 'maxLeadBytes'),
    ),
    workRxjsZipLeadVsSluice: div(figure('work-zip-rxjs', 'maxLeadBytes'), figure('work-zip', 'maxLeadBytes')),
    workEffectLeadVsSluiceConcatMap: div(
      figure('work-effect', 'maxLeadBytes'),
      figure('work-concatmap', 'maxLeadBytes'),
    ),
    workZxLeadVsSluiceConcatMap: div(
      figure('work-zx', 'maxLeadBytes'),
      figure('work-concatmap', 'maxLeadBytes'),
    ),
    slowNaiveLeadVsExecIterable: div(
      figure('slow-naive-rxjs', 'maxLeadBytes'),
      figure('slow-exec-iterable', 'maxLeadBytes'),
    ),
    latencyP50VsRaw: div(figure('latency-exec-push', 'p50Us'), figure('latency-raw-data', 'p50Us')),
    latencyP50ExcessVsBudget: div(
      diff(figure('latency-exec-push', 'p50Us'), figure('latency-raw-data', 'p50Us')),
      25,
    ),
    latencyP99VsLimit: div(figure('latency-exec-push', 'p99Us'), 1000),
    latencyIterableP99VsLimit: div(figure('latency-exec-iterable', 'p99Us'), 1000),
    cancelTermVsLimit: div(figure('cancel-term', 'maxMs'), 50),
    cancelIgnoreTermVsLimit: div(figure('cancel-ignore-term', 'maxMs'), CANCEL_FORCE_KILL_MS + 50),
    cancelCgroupVsGroupMedian: div(
      figure('cancel-term-cgroup', 'medianMs'),
      figure('cancel-term', 'medianMs'),
    ),
    cancelCgroupVsGroupMax: div(figure('cancel-term-cgroup', 'maxMs'), figure('cancel-term', 'maxMs')),
    cancelIgnoreTermCgroupVsGroupMedian: div(
      figure('cancel-ignore-term-cgroup', 'medianMs'),
      figure('cancel-ignore-term', 'medianMs'),
    ),
    cancelDaemonCgroupVsLimit: div(figure('cancel-daemon-cgroup', 'maxMs'), 50),
    spawnCgroupVsGroupMedian: div(figure('spawn-cgroup', 'medianMs'), figure('spawn-group', 'medianMs')),
    redisThroughputVsTarget: div(rate('redis-throughput'), 100_000),
    redisLatencyP99VsLimit: div(figure('redis-latency', 'p99Us'), 20_000),
    redisCancelVsLimit: div(figure('redis-cancel', 'maxMs'), 100),
    redisWebCancelVsLimit: div(figure('redis-web-cancel', 'maxMs'), 100),
    mcpHttpCancelMedianVsLimit: div(figure('redis-mcp-http-cancel', 'medianMs'), 100),
    cancelMcpVsTerm: div(figure('cancel-mcp', 'medianMs'), figure('cancel-term', 'medianMs')),
    cancelMcpVsLimit: div(figure('cancel-mcp', 'maxMs'), 100),
    importSluiceVsRxjs: div(figure('import-sluice', 'medianMs'), figure('import-rxjs', 'medianMs')),
    importExcessVsBudget: div(
      diff(figure('import-sluice', 'medianMs'), figure('import-rxjs', 'medianMs')),
      30,
    ),
    importExecaVsRxjs: div(figure('import-execa', 'medianMs'), figure('import-rxjs', 'medianMs')),
    startCliVsNode: paired('start-cli', 'start-node'),
    startSluiceVsExecaScript: paired('start-sluice-script', 'start-execa-script'),
    startCliVsNodeMedians: div(figure('start-cli', 'medianMs'), figure('start-node', 'medianMs')),
    startSluiceVsExecaScriptMedians: div(
      figure('start-sluice-script', 'medianMs'),
      figure('start-execa-script', 'medianMs'),
    ),
    startCliVsNodeCpu: div(figure('start-cli', 'medianCpuMs'), figure('start-node', 'medianCpuMs')),
    startSluiceVsExecaScriptCpu: div(
      figure('start-sluice-script', 'medianCpuMs'),
      figure('start-execa-script', 'medianCpuMs'),
    ),
  };
  const ratios = Object.fromEntries(Object.entries(figures).map(([name, value]) => [name, value ?? null]));
  const targets: Record<string, TargetCheck> = {};
  const target = (name: string, op: TargetCheck['op'], limit: number, means: string) => {
    const ratio = ratios[name] ?? null;
    const ran = figures[name] !== undefined;
    const met = ratio !== null && (op === '>=' ? ratio >= limit : ratio <= limit);
    targets[name] = { ratio, op, limit, ran, met, means };
  };
  for (const { name, limit, means } of HOT_PATH) target(name, '>=', limit, means);
  for (const { name, limit, means } of HOT_PATH) {
    target(`${name}Second`, '>=', limit, `second runs: ${means}`);
  }
  target('execPushVsReadlineEvents', '>=', 1.3, 'exec push ≥ 1.3 × readline events');
  target('execIterableVsExecaIterator', '>=', 2.5, 'toAsyncIterable ≥ 2.5 × execa iterator');
  for (const name of ['ExecIterable', 'ExecOnChunk', 'KernelStream']) {
    target(`slow${name}LeadVsLimit`, '<=', 1, `slow ${name}: lead ≤ 16 chunks + 128 KiB`);
    target(`slow${name}RssVsLimit`, '<=', 1, `slow ${name}: RSS growth ≤ 20 MB`);
  }
  for (const name of ['ConcatMap', 'MergeMap', 'Share']) {
    target(`compose${name}LeadVsLimit`, '<=', 1, `compose ${name}: lead ≤ 16 chunks + 384 KiB`);
    target(`compose${name}RssVsLimit`, '<=', 1, `compose ${name}: RSS growth ≤ 20 MB`);
  }
  for (const name of ['ConcatMap', 'MergeMap', 'Zip']) {
    target(`work${name}LeadVsLimit`, '<=', 1, `work per line, sluice ${name}: lead ≤ 20 values + 384 KiB`);
    target(`work${name}RssVsLimit`, '<=', 1, `work per line, sluice ${name}: RSS growth ≤ 20 MB`);
  }
  target('execRunsApiVsNoApi', '>=', 0.98, 'exec runs/s with the API, no SDK ≥ 0.98 × without the API');
  target(
    'execIterableApiVsNoApi',
    '>=',
    0.98,
    'exec → toAsyncIterable lines/s with the API, no SDK ≥ 0.98 × without (median of rounds)',
  );
  target(
    'execIterableCpuApiVsNoApi',
    '<=',
    1.02,
    "exec → toAsyncIterable: the reader's CPU per line with the API, no SDK ≤ 1.02 × without",
  );
  target('cancelMcpVsLimit', '<=', 1, 'cancel over MCP (abort → group gone) ≤ 100 ms');
  target('latencyP50ExcessVsBudget', '<=', 1, "latency p50 ≤ raw 'data' p50 + 25 µs");
  target('latencyP99VsLimit', '<=', 1, 'latency p99 ≤ 1 ms');
  target('cancelTermVsLimit', '<=', 1, 'cancel (SIGTERM) ≤ 50 ms');
  target('cancelIgnoreTermVsLimit', '<=', 1, 'cancel (ignores SIGTERM) ≤ forceKillAfterMs + 50 ms');
  target('cancelDaemonCgroupVsLimit', '<=', 1, "cancel of a setsid daemon (containment 'cgroup') ≤ 50 ms");
  target(
    'spawnCgroupVsGroupMedian',
    '<=',
    1.3,
    'spawn → exit with a cgroup per run ≤ 1.3 × without (median)',
  );
  target('importExcessVsBudget', '<=', 1, "import 'sluice' ≤ import 'rxjs' + 30 ms");
  target('startCliVsNode', '<=', 2.5, '`sluice exec -- true` ≤ 2.5 × `node -e 0` (wall, median of rounds)');
  target(
    'startSluiceVsExecaScript',
    '<=',
    1.1,
    'import sluice + one exec ≤ 1.1 × the same script on execa (wall, median of rounds)',
  );
  target('redisThroughputVsTarget', '>=', 1, 'through Redis to a follower process ≥ 100k lines/s');
  target('redisLatencyP99VsLimit', '<=', 1, 'through Redis at 1k lines/s: p99 ≤ 20 ms');
  target('redisCancelVsLimit', '<=', 1, 'cancel from another instance reaches the owner ≤ 100 ms');
  target('redisWebCancelVsLimit', '<=', 1, 'DELETE on another web server → group gone ≤ 100 ms');
  target(
    'mcpHttpCancelMedianVsLimit',
    '<=',
    1,
    'MCP over HTTP: cancel on another instance → group gone ≤ 100 ms (median)',
  );
  const names = (keep: (check: TargetCheck) => boolean) =>
    Object.entries(targets).flatMap(([name, check]) => (keep(check) ? [name] : []));
  return {
    ratios,
    targets,
    missed: names((check) => check.ran && !check.met),
    notRun: names((check) => !check.ran),
  };
}
