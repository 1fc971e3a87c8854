import type { ThroughputFigures } from './bench-result.js';

/**
 * Times one throughput run: what `read` resolves with (the lines it read), the wall seconds it took,
 * and this process's CPU seconds (user + system) over the same span — the reader's, never the
 * producer's, which is another process.
 *
 * @example
 * ```ts
 * const { lines, seconds, cpuSeconds } = await timeThroughput(() => readAll('cat', ['lines.txt']));
 * ```
 */
export async function timeThroughput(read: () => Promise<number>): Promise<ThroughputFigures> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const lines = await read();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { lines, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}
