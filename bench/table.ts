import type { BenchEntry } from './aggregate.js';
import type { BenchSummary } from './summary.js';

const M = (value: unknown) => (typeof value === 'number' ? `${(value / 1e6).toFixed(2)} M` : '—');
const n = (value: unknown, unit = '') => (typeof value === 'number' ? `${value}${unit}` : '—');

function markdown(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * Renders the run as Markdown tables (one per group) and the targets, ready for
 * `docs/benchmarks.md` and the README.
 *
 * @example
 * ```ts
 * console.log(renderTable(entries, summarize(entries), 'Node v20 · 2 × AMD EPYC'));
 * ```
 */
export function renderTable(entries: readonly BenchEntry[], summary: BenchSummary, machine: string): string {
  const of = (group: BenchEntry['group']) => entries.filter((entry) => entry.group === group);
  const failed = (entry: BenchEntry) =>
    entry.error ? [`${entry.label} — FAILED: ${entry.error}`] : undefined;
  const slowTable = (group: 'slow' | 'compose' | 'work') =>
    markdown(
      ['consumer', "child's max lead", 'parent RSS start → peak', 'growth', 'child wrote', 'stopped by'],
      of(group).map(
        (e) =>
          failed(e) ?? [
            e.label,
            `${n(e.maxLeadLines)} lines (${(Number(e.maxLeadBytes) / 1024).toFixed(0)} KiB)`,
            `${n(e.rssStartMB)} → ${n(e.rssPeakMB)} MB`,
            n(e.rssGrowthMB, ' MB'),
            n(e.childWrittenMB, ' MB'),
            `${String(e.stoppedBy)} (${n(e.seconds)} s)`,
          ],
      ),
    );
  const perLine = (e: BenchEntry) => e.unit !== 'runs';
  const parts = [`Machine: ${machine}`, ''];
  parts.push(
    '### Throughput (lines/s in the parent, median of runs, min–max; then the same variant run again in the same process, once V8 has optimized it)',
    '',
    markdown(
      [
        'way of reading',
        'lines/s',
        'min–max',
        'CPU per line',
        'second run: lines/s',
        'second run: CPU per line',
        'all lines',
      ],
      of('throughput')
        .filter(perLine)
        .map(
          (e) =>
            failed(e) ?? [
              e.label,
              M(e.linesPerSec),
              `${M(e.linesPerSecMin)}–${M(e.linesPerSecMax)}`,
              n(e.cpuNsPerLine, ' ns'),
              M(e.secondLinesPerSec),
              n(e.secondCpuNsPerLine, ' ns'),
              e.complete ? 'yes' : 'NO',
            ],
        ),
    ),
    '',
    "### Runs (many short runs one after the other: runs/s, median of runs, min–max; the reader's CPU per run)",
    '',
    markdown(
      ['way of running', 'runs/s', 'min–max', 'CPU per run', 'all runs'],
      of('throughput')
        .filter((e) => !perLine(e))
        .map(
          (e) =>
            failed(e) ?? [
              e.label,
              n(e.linesPerSec),
              `${n(e.linesPerSecMin)}–${n(e.linesPerSecMax)}`,
              typeof e.cpuNsPerLine === 'number'
                ? `${(e.cpuNsPerLine / 1000).toFixed(e.cpuNsPerLine < 10_000 ? 2 : 0)} µs`
                : '—',
              e.complete ? 'yes' : 'NO',
            ],
        ),
    ),
    '',
    '### Latency (one line every 2 ms, write → handler)',
    '',
    markdown(
      ['way of reading', 'p50', 'p99', 'max', 'samples'],
      of('latency').map(
        (e) => failed(e) ?? [e.label, n(e.p50Us, ' µs'), n(e.p99Us, ' µs'), n(e.maxUs, ' µs'), n(e.samples)],
      ),
    ),
    '',
    '### Slow consumer (1 line/ms; producer attempts a 1 GiB write)',
    '',
    slowTable('slow'),
    '',
    '### Compositions (the command subscribed later, by an operator; slow consumer as above)',
    '',
    slowTable('compose'),
    '',
    '### Work per line (async work inside the pipeline, a plain subscribe() at the end; docs/backpressure.md)',
    '',
    slowTable('work'),
    '',
    '### Cancel (unsubscribe → every process of the run gone), spawn with and without a cgroup, and import cost',
    '',
    markdown(
      ['measurement', 'median', 'max / min', 'reps'],
      [
        ...of('cancel').map(
          (e) => failed(e) ?? [e.label, n(e.medianMs, ' ms'), `max ${n(e.maxMs, ' ms')}`, n(e.reps)],
        ),
        ...of('import').map(
          (e) => failed(e) ?? [e.label, n(e.medianMs, ' ms'), `min ${n(e.minMs, ' ms')}`, n(e.reps)],
        ),
      ],
    ),
    '',
    '### Start-up (whole processes, alternating rounds; wall and CPU = user + system)',
    '',
    markdown(
      ['process', 'wall median', 'wall min', 'CPU median', 'runs'],
      of('start').map(
        (e) =>
          failed(e) ?? [e.label, n(e.medianMs, ' ms'), n(e.minMs, ' ms'), n(e.medianCpuMs, ' ms'), n(e.reps)],
      ),
    ),
    '',
    '### Runs through Redis (a local redis-server; the follower is another process)',
    '',
    markdown(
      ['measurement', 'result', 'detail'],
      of('redis').map(
        (e) =>
          failed(e) ??
          (e.name === 'redis-throughput' ||
          e.name === 'redis-mcp-http-progress' ||
          e.name === 'redis-cluster-throughput'
            ? [
                e.label,
                `${M(e.linesPerSec)} lines/s`,
                `${n(e.lines)} lines, all in order: ${e.complete ? 'yes' : 'NO'}`,
              ]
            : e.name === 'redis-cancel' ||
                e.name === 'redis-web-cancel' ||
                e.name === 'redis-mcp-http-resume' ||
                e.name === 'redis-mcp-http-cancel' ||
                e.name === 'redis-cluster-failover'
              ? [e.label, `median ${n(e.medianMs, ' ms')}`, `max ${n(e.maxMs, ' ms')}, ${n(e.reps)} reps`]
              : e.name === 'redis-latency' || e.name === 'redis-cluster-latency'
                ? [
                    e.label,
                    `p50 ${n(e.p50Us, ' µs')}, p99 ${n(e.p99Us, ' µs')}`,
                    `max ${n(e.maxUs, ' µs')}, ${n(e.samples)} samples`,
                  ]
                : [
                    e.label,
                    `${n(e.batchedMBPer1000Runs, ' MB')} batched, ${n(e.perLineMBPer1000Runs, ' MB')} one entry per line`,
                    `${n(e.batchedBytesPerLine, ' B')} / ${n(e.perLineBytesPerLine, ' B')} per line`,
                  ]),
      ),
    ),
    '',
    '### Targets (ratios within this run)',
    '',
    markdown(
      ['target', 'ratio', 'needed', 'met'],
      Object.values(summary.targets).map((t) => [
        t.means,
        t.ratio === null ? '—' : t.ratio.toFixed(2),
        `${t.op} ${t.limit}`,
        t.ran ? (t.met ? 'yes' : '**no**') : 'not run',
      ]),
    ),
  );
  return parts.join('\n');
}
