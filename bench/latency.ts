import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { execa } from 'execa';
import { exec, toAsyncIterable } from '../src/index.js';

/** Runs the ticker producer and resolves with one write → handler latency (µs) per line. */
export type LatencyVariant = (command: string, args: readonly string[]) => Promise<number[]>;

/** Lines ignored at the start (process start-up, JIT warm-up). */
const WARMUP = 25;

/** Records the latency of one stamped line (`<hrtime ns>\n`), measured now. */
function recorder(): { record(line: string): void; latencies: number[] } {
  const latencies: number[] = [];
  let seen = 0;
  return {
    latencies,
    record(line) {
      const now = process.hrtime.bigint();
      seen += 1;
      if (seen > WARMUP) latencies.push(Number(now - BigInt(line.trim())) / 1000);
    },
  };
}

/**
 * Latency variants: the ticker writes one line every 2 ms stamped with `process.hrtime.bigint()`
 * (CLOCK_MONOTONIC, shared by every process on the machine); the handler subtracts it from its own.
 *
 * @example
 * ```ts
 * const latencies = await latencyVariants['latency-exec-push']('node', ['bench/fixtures/ticker.mjs', '500']);
 * ```
 */
export const latencyVariants: Record<string, LatencyVariant> = {
  'latency-raw-data': async (command, args) => {
    const { record, latencies } = recorder();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let carry = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      const lines = (carry + text).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) record(line);
    });
    await once(child.stdout, 'end');
    return latencies;
  },
  'latency-execa-iterator': async (command, args) => {
    const { record, latencies } = recorder();
    for await (const line of execa(command, args, { buffer: false })) record(line);
    return latencies;
  },
  'latency-exec-push': (command, args) =>
    new Promise((resolve, reject) => {
      const { record, latencies } = recorder();
      exec(command, args).subscribe({
        next: (event) => {
          if (event.kind === 'stdout') record(event.content);
        },
        error: reject,
        complete: () => resolve(latencies),
      });
    }),
  'latency-exec-iterable': async (command, args) => {
    const { record, latencies } = recorder();
    for await (const event of toAsyncIterable(exec(command, args))) {
      if (event.kind === 'stdout') record(event.content);
    }
    return latencies;
  },
};
