import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../bench/catalog.js';
import { needs } from '../support/system-tools.js';

// Runs the whole benchmark suite in its tiny mode (`--quick`: 20 000 lines, one run of each
// variant, three children at a time) so that the bench cannot rot: every variant must report,
// with sane figures, and the summary must hold every ratio. The figures themselves mean nothing
// at this size and under test load, so no target is checked here.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Entry = Record<string, unknown> & { name: string; group: string };

const positive = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

describe.skipIf(!needs('linux', 'python3'))('bench/run.ts --quick --json', () => {
  it('reports every variant with sane fields and a summary with every ratio', {
    timeout: 300_000,
  }, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', '--quick', '--json'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
    );
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Entry | { summary: Record<string, unknown> });
    const last = lines.pop() as { summary?: { ratios: Record<string, unknown>; targets: object } };
    const entries = lines as Entry[];

    expect(entries.map((entry) => entry.name)).toEqual(CATALOG.map((spec) => spec.name));
    for (const entry of entries) {
      expect(entry.error, `${entry.name} failed`).toBeUndefined();
      if (entry.group === 'throughput') {
        expect(entry.complete, entry.name).toBe(true);
        expect(positive(entry.linesPerSec), entry.name).toBe(true);
        expect(entry.linesPerSecMin as number).toBeLessThanOrEqual(entry.linesPerSec as number);
        // Every per-line variant read in-process is run a second time, warmed up (bench/child.ts).
        if (entry.unit !== 'runs' && entry.name !== 'mcp-http-progress') {
          expect(positive(entry.secondLinesPerSec), entry.name).toBe(true);
          expect(positive(entry.secondCpuNsPerLine), entry.name).toBe(true);
        }
      } else if (entry.group === 'latency') {
        expect(entry.samples, entry.name).toBeGreaterThan(0);
        expect(positive(entry.p50Us), entry.name).toBe(true);
        expect(entry.p99Us as number).toBeGreaterThanOrEqual(entry.p50Us as number);
      } else if (entry.group === 'slow' || entry.group === 'compose' || entry.group === 'work') {
        expect(entry.consumedLines, entry.name).toBeGreaterThanOrEqual(0); // the naive one may starve
        expect(positive(entry.childWrittenMB), entry.name).toBe(true);
        expect(entry.maxLeadBytes as number, entry.name).toBeGreaterThan(0);
        expect(entry.rssPeakMB as number).toBeGreaterThanOrEqual(entry.rssStartMB as number);
        expect(['time', 'rss']).toContain(entry.stoppedBy);
      } else if (entry.group === 'redis') {
        if (entry.name === 'redis-throughput') expect(entry.complete, entry.name).toBe(true);
        if (entry.name === 'redis-latency') expect(entry.samples, entry.name).toBeGreaterThan(0);
        if (entry.name === 'redis-memory')
          expect(positive(entry.perLineMBPer1000Runs), entry.name).toBe(true);
      } else {
        expect(positive(entry.medianMs), entry.name).toBe(true);
      }
    }
    // The bounded consumers really pause the producer, even in a 0.3 s run: a lead of a few
    // hundred KiB, against MBs for the naive pipeline (which nothing pauses).
    const lead = (name: string) => entries.find((entry) => entry.name === name)?.maxLeadBytes as number;
    expect(lead('slow-exec-iterable')).toBeLessThan(lead('slow-naive-rxjs'));
    expect(lead('compose-concatmap')).toBeLessThan(lead('compose-concatmap-naive'));
    expect(lead('work-concatmap')).toBeLessThan(lead('work-concatmap-rxjs'));

    expect(last.summary).toBeDefined();
    const ratios = Object.entries(last.summary?.ratios ?? {});
    expect(ratios.length).toBeGreaterThanOrEqual(20);
    for (const [name, ratio] of ratios) {
      expect(typeof ratio === 'number' && Number.isFinite(ratio), `ratio ${name} = ${ratio}`).toBe(true);
    }
    expect(Object.keys(last.summary?.targets ?? {})).toContain('execPushVsDataSplit');
    expect(Object.keys(last.summary?.targets ?? {})).toContain('kernelStreamVsExecIterableSecond');
    expect(entries.filter((entry) => entry.group === 'throughput').every((entry) => entry.runs === 1)).toBe(
      true,
    );
  });
});
