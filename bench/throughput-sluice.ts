import { coalesce, type ExecEvent, exec, onChunk, toAsyncIterable } from '../src/index.js';
import type { ThroughputVariant } from './throughput-raw.js';

const isLine = (event: ExecEvent) => event.kind === 'stdout';
const quiet = { warn() {} };

/**
 * sluice's ways of reading a producer's stdout to the end, one `exec` subscription each.
 *
 * @example
 * ```ts
 * const lines = await sluiceThroughput['exec-push']('cat', ['/tmp/lines.txt']);
 * ```
 */
export const sluiceThroughput: Record<string, ThroughputVariant> = {
  /** Plain `subscribe()`: push, one event per line. */
  'exec-push': (command, args) =>
    new Promise((resolve, reject) => {
      let lines = 0;
      exec(command, args).subscribe({
        next: (event) => {
          if (isLine(event)) lines += 1;
        },
        error: reject,
        complete: () => resolve(lines),
      });
    }),
  /** `for await` over `toAsyncIterable` (bufferSize 16: bounded). */
  'exec-iterable': async (command, args) => {
    let lines = 0;
    for await (const event of toAsyncIterable(exec(command, args))) if (isLine(event)) lines += 1;
    return lines;
  },
  /** `onChunk` with an async callback (bufferSize 16: bounded). */
  'exec-onchunk': async (command, args) => {
    let lines = 0;
    await onChunk(exec(command, args), async (event) => {
      if (isLine(event)) lines += 1;
    });
    return lines;
  },
  /** `coalesce()` (16 ms windows) then a plain subscribe, as a UI would. */
  'exec-coalesce': (command, args) =>
    new Promise((resolve, reject) => {
      let lines = 0;
      exec(command, args)
        .pipe(coalesce())
        .subscribe({
          next: (batch) => {
            for (const event of batch) if (isLine(event)) lines += 1;
          },
          error: reject,
          complete: () => resolve(lines),
        });
    }),
  /** A streaming `exec` hostcall through the kernel's host and an extension's bridge, `for await`. */
  'kernel-stream': async (command, args) => {
    // Imported here so that the exec variants never depend on the kernel (sluice/kernel).
    const { connectExtension, createHost } = await import('../src/kernel/index.js');
    const host = createHost({ logger: quiet });
    const { api } = connectExtension(host, 'bench');
    let lines = 0;
    for await (const chunk of api.exec(command, [...args], { stream: true, buffer_size: 16 })) {
      if (typeof chunk === 'string') lines += 1;
    }
    return lines;
  },
};
