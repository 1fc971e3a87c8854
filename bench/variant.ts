import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunParams, RunResult } from './bench-result.js';
import type { VariantSpec } from './catalog.js';
import { timeThroughput } from './time-throughput.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));

/**
 * The command a variant reads: for latency, the ticker (a line every 2 ms); for throughput, `cat`
 * of the generated `file` of `lines` lines, or the Node producer (`bench/fixtures/lines.mjs`).
 *
 * @example
 * ```ts
 * producerOf(spec, { lines: 1000, latencyLines: 60 }, '/tmp/lines.txt'); // { command: 'cat', args: [...] }
 * ```
 */
export function producerOf(
  spec: VariantSpec,
  sizes: Pick<RunParams, 'lines' | 'latencyLines'>,
  file: string,
): Pick<RunParams, 'command' | 'args'> {
  if (spec.group === 'latency') {
    return {
      command: process.execPath,
      args: [join(FIXTURES, 'ticker.mjs'), String(sizes.latencyLines), '2'],
    };
  }
  if (spec.producer === 'node') {
    return { command: process.execPath, args: [join(FIXTURES, 'lines.mjs'), String(sizes.lines)] };
  }
  return { command: 'cat', args: [file] };
}

/**
 * Runs one variant once in this process and gives its figures. Each group's module is imported
 * only when one of its variants runs, so a raw baseline's process never loads sluice (and starts
 * faster). The runner calls it in a fresh process per run (bench/child.ts); the smoke test calls
 * it in its own process, at a tiny size.
 *
 * @example
 * ```ts
 * await runVariant({ variant: 'exec-push', command: 'cat', args: [file], lines: 1000, … });
 * ```
 */
export async function runVariant(params: RunParams): Promise<RunResult> {
  const name = params.variant.replace(/@node$/, '');
  // Tracing variants hide the OpenTelemetry API or register its SDK before sluice runs anything.
  if (/^exec-(runs|spans|push-no-otel|iterable-no-otel)/.test(name)) {
    await (await import('./trace-runs.js')).prepareTraceVariant(name);
  }
  // sluice loads execa and zod on first use: load them now, outside every measurement.
  if (/^(exec-|kernel-|mcp-|cli-|latency-exec|slow-exec|slow-kernel|compose-|work-|cancel-)/.test(name)) {
    await (await import('./warm-up.js')).warmUpSluice();
  }
  // The kernel variants also load the kernel (and run one stream) before the clock starts.
  if (/^(kernel-|slow-kernel|mcp-)/.test(name)) await (await import('./warm-up.js')).warmUpKernel();
  // The CLI variant also loads the CLI's `--json` path (and runs it once) before the clock starts.
  if (name.startsWith('cli-')) await (await import('./warm-up.js')).warmUpCli();
  // The MCP variant also loads the SDK (and its own zod use) before the clock starts.
  if (name.startsWith('mcp-')) {
    await import('@modelcontextprotocol/sdk/client/index.js');
    await import('../src/mcp/index.js');
  }
  // The tracing variants count runs, not the command's lines (bench/trace-runs.ts).
  if (/^exec-(runs|spans)/.test(name)) {
    const { TRACE_RUNS, traceCount, traceRunVariant } = await import('./trace-runs.js');
    const runs = params.manyRuns ?? TRACE_RUNS;
    const first = await timeThroughput(() => traceRunVariant(name, runs));
    return { ...first, expectedLines: traceCount(name, runs) };
  }
  const throughput =
    (await import('./throughput-raw.js')).rawThroughput[name] ??
    (/^(exec|kernel|mcp|cli)-/.test(name)
      ? (await import('./throughput-sluice.js')).sluiceThroughput[name]
      : undefined);
  if (throughput !== undefined) {
    const read = () => throughput(params.command, params.args);
    const first = await timeThroughput(read);
    // The same variant again in the same process: the per-line cost once V8 has optimized the
    // path, beside the first run's, which also holds the JIT's warm-up (docs/benchmarks.md).
    return { ...first, second: await timeThroughput(read) };
  }
  if (name.startsWith('latency-')) {
    const latency = (await import('./latency.js')).latencyVariants[name];
    if (latency !== undefined) return { latenciesUs: await latency(params.command, params.args) };
  }
  if (name.startsWith('slow-')) {
    const { measureSlow, slowVariants } = await import('./slow-consumer.js');
    const slow = slowVariants[name];
    const side = join(params.tmp, `${name}.pid`);
    if (slow !== undefined) {
      return { slow: await measureSlow(slow, side, join(params.fixtures, 'flood.py'), params.slowMs) };
    }
  }
  if (name.startsWith('compose-')) {
    const { measureSlow } = await import('./slow-consumer.js');
    const compose = (await import('./compose.js')).composeVariants[name];
    const side = join(params.tmp, `${name}.pid`);
    if (compose !== undefined) {
      return { slow: await measureSlow(compose, side, join(params.fixtures, 'flood.py'), params.slowMs) };
    }
  }
  if (name.startsWith('work-')) {
    const { measureSlow } = await import('./slow-consumer.js');
    const work =
      name === 'work-effect' || name === 'work-zx'
        ? (await import('./work-peers.js')).workPeerVariants[name]
        : (await import('./work-per-line.js')).workVariants[name];
    const side = join(params.tmp, `${name}.pid`);
    if (work !== undefined) {
      return { slow: await measureSlow(work, side, join(params.fixtures, 'flood.py'), params.slowMs) };
    }
  }
  if (name === 'mcp-http-progress') {
    const { measureMcpHttpProgress } = await import('./mcp-http.js');
    // Its own span (the exchange, not the server's setup): the one its CPU figure covers too.
    const {
      lines = 0,
      seconds,
      cpuSeconds,
    } = await measureMcpHttpProgress(params.command, params.args, 'memory');
    return { lines, seconds, cpuSeconds };
  }
  if (name === 'cancel-mcp-http-resume') {
    const { measureMcpHttpResume } = await import('./mcp-http.js');
    return { cancelMs: await measureMcpHttpResume('memory', params.reps * 3) };
  }
  if (name === 'cancel-mcp') {
    const { measureMcpCancel } = await import('./cancel-mcp.js');
    return { cancelMs: await measureMcpCancel(join(params.fixtures, 'group-term.sh'), params.reps) };
  }
  if (name.startsWith('cancel-') && name !== 'cancel-mcp') {
    const { measureCancel } = await import('./cancel.js');
    const fixture = name.startsWith('cancel-term')
      ? 'group-term.sh'
      : name.startsWith('cancel-ignore-term')
        ? 'group-ignore-term.sh'
        : 'daemon-term.sh';
    const containment = name.endsWith('-cgroup') ? 'cgroup' : 'group';
    return { cancelMs: await measureCancel(join(params.fixtures, fixture), params.reps, containment) };
  }
  if (name === 'spawn-group' || name === 'spawn-cgroup') {
    const { measureSpawn } = await import('./cancel.js');
    return {
      cancelMs: await measureSpawn(params.reps * 4, name === 'spawn-cgroup' ? 'cgroup' : 'group'),
    };
  }
  if (name.startsWith('redis-')) {
    await (await import('./warm-up.js')).warmUpSluice();
    const redis = await import('./redis.js');
    if (name === 'redis-throughput')
      return redis.measureRedisThroughput(params.tmp, Math.min(params.lines, 500_000));
    if (name === 'redis-latency') {
      return redis.measureRedisLatency(join(params.fixtures, 'ticker.mjs'), params.latencyLines, 1);
    }
    if (name === 'redis-cluster-throughput')
      return redis.measureRedisThroughput(params.tmp, Math.min(params.lines, 500_000), true);
    if (name === 'redis-cluster-latency') {
      return redis.measureRedisLatency(join(params.fixtures, 'ticker.mjs'), params.latencyLines, 1, true);
    }
    if (name === 'redis-cluster-failover') return redis.measureRedisClusterFailover(Math.max(1, params.reps));
    if (name === 'redis-memory') return redis.measureRedisMemory(params.manyRuns ?? 1000, 100);
    if (name === 'redis-mcp-http-progress') {
      const mcp = await import('./mcp-http.js');
      const lines = Math.min(params.lines, 500_000);
      const file = await mcp.redisProgressFile(params.tmp, lines);
      return mcp.measureMcpHttpProgress('cat', [file], 'redis', lines);
    }
    if (name === 'redis-mcp-http-resume') {
      const { measureMcpHttpResume } = await import('./mcp-http.js');
      return { cancelMs: await measureMcpHttpResume('redis', params.reps * 3) };
    }
    if (name === 'redis-mcp-http-cancel') {
      const { measureMcpHttpCancel } = await import('./mcp-http.js');
      const times = await measureMcpHttpCancel(join(params.fixtures, 'group-term.sh'), params.reps * 3);
      return { cancelMs: times };
    }
    if (name === 'redis-cancel') return redis.measureRedisCancel(params.reps * 3);
    if (name === 'redis-web-cancel') {
      const { measureRedisWebCancel } = await import('./redis-web.js');
      return measureRedisWebCancel(join(params.fixtures, 'group-term.sh'), params.reps * 3);
    }
  }
  throw new Error(`unknown variant ${params.variant}`);
}
