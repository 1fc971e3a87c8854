import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { Observable } from 'rxjs';
import { LINE_BYTES } from './line-format.js';

/** Reads a producer's stdout and resolves with the number of lines it consumed. */
export type ThroughputVariant = (command: string, args: readonly string[]) => Promise<number>;

const start = (command: string, args: readonly string[]) =>
  spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });

/** Calls `onLine` with each line (as a string, `\n` included) of the `'data'` events of `child.stdout`. */
function splitData(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let carry: Buffer | undefined;
  stream.on('data', (chunk: Buffer) => {
    let bytes = chunk;
    if (carry !== undefined) {
      bytes = Buffer.concat([carry, chunk]);
      carry = undefined;
    }
    let from = 0;
    for (;;) {
      const newline = bytes.indexOf(10, from);
      if (newline === -1) break;
      onLine(bytes.toString('utf8', from, newline + 1));
      from = newline + 1;
    }
    if (from < bytes.length) carry = bytes.subarray(from);
  });
}

/**
 * The raw Node and execa baselines, each reading a producer's stdout to the end.
 *
 * @example
 * ```ts
 * const lines = await rawThroughput['raw-data-split']('cat', ['/tmp/lines.txt']);
 * ```
 */
export const rawThroughput: Record<string, ThroughputVariant> = {
  /** The ceiling: bytes only, no splitting, no strings. */
  'raw-bytes': async (command, args) => {
    const child = start(command, args);
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    await once(child.stdout, 'end');
    return bytes / LINE_BYTES;
  },
  /** `'data'` events split with `indexOf`, one string per line. */
  /**
   * node-pty (`@lydell/node-pty`, prebuilt) with a hand-written reader: its `onData` strings split
   * at `\n` until `onExit`. It has no demand and reads nothing after the exit, so a run may come
   * up short (the table's `complete`).
   */
  'raw-node-pty': async (command, args) => {
    const { spawn: spawnPty } = await import('@lydell/node-pty');
    const pty = spawnPty(command, [...args], { cols: 80, rows: 24 });
    let lines = 0;
    pty.onData((data) => {
      for (let at = data.indexOf('\n'); at !== -1; at = data.indexOf('\n', at + 1)) lines += 1;
    });
    await new Promise((resolve) => pty.onExit(resolve));
    return lines;
  },
  'raw-data-split': async (command, args) => {
    const child = start(command, args);
    let lines = 0;
    splitData(child.stdout, () => {
      lines += 1;
    });
    await once(child.stdout, 'end');
    return lines;
  },
  'readline-events': async (command, args) => {
    const child = start(command, args);
    const reader = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    let lines = 0;
    reader.on('line', () => {
      lines += 1;
    });
    await once(reader, 'close');
    return lines;
  },
  'readline-iterator': async (command, args) => {
    const child = start(command, args);
    let lines = 0;
    for await (const _line of createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
      lines += 1;
    }
    return lines;
  },
  'execa-iterator': async (command, args) => {
    let lines = 0;
    for await (const _line of execa(command, args, { buffer: false, stderr: 'inherit' })) lines += 1;
    return lines;
  },
  /** A hand-written RxJS Observable over `'data'`, one event per line, plain subscribe. */
  'naive-rxjs': (command, args) =>
    new Promise((resolve, reject) => {
      let lines = 0;
      new Observable<string>((subscriber) => {
        const child = start(command, args);
        splitData(child.stdout, (line) => subscriber.next(line));
        child.stdout.on('end', () => subscriber.complete());
        child.on('error', (error) => subscriber.error(error));
        return () => child.kill();
      }).subscribe({
        next: () => {
          lines += 1;
        },
        error: reject,
        complete: () => resolve(lines),
      });
    }),
};
