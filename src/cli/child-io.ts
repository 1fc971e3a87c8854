import { finalize, type Observable } from 'rxjs';
import { fromAsyncIterable } from '../adapters/from-async-iterable.js';
import type { CliStreams } from './text-view.js';

/**
 * What `sluice exec` adds to its child's options for the terminal:
 *
 * - `FORCE_COLOR` when sluice itself shows colours (its output is a colour terminal, or
 *   `--color`) and the environment does not set it already: children that check `isatty()` see a
 *   pipe, and would otherwise drop their colours (`--no-color` leaves it unset). The level follows
 *   the terminal's colour depth (1: 16 colours, 2: 256, 3: true colour);
 * - with `--stdin inherit`, sluice's own stdin as the child's input, read on demand. (The child
 *   runs in a process group of its own, which the terminal would stop with `SIGTTIN` if it read
 *   the terminal itself: sluice reads it and hands it on, so a prompt gets what is typed.)
 *
 * @example
 * ```ts
 * exec('npm', ['test'], { reject: false, ...childIo(process, process.env, { color: true, stdin: 'inherit' }) });
 * ```
 */
export function childIo(
  io: CliStreams,
  env: NodeJS.ProcessEnv,
  options: { color: boolean; stdin: 'inherit' | 'ignore' },
): { env?: Record<string, string>; input?: Observable<Uint8Array> } {
  const result: { env?: Record<string, string>; input?: Observable<Uint8Array> } = {};
  if (options.color && env.FORCE_COLOR === undefined) {
    const depth = (io.stdout as { getColorDepth?: () => number }).getColorDepth?.() ?? 4;
    result.env = { FORCE_COLOR: depth >= 24 ? '3' : depth >= 8 ? '2' : '1' };
  }
  if (options.stdin === 'inherit') {
    const stdin = io.stdin ?? process.stdin;
    // Once the command is done with it, let go of stdin: a terminal being read keeps Node alive.
    result.input = (fromAsyncIterable(stdin as AsyncIterable<Uint8Array>) as Observable<Uint8Array>).pipe(
      finalize(() => (stdin as { destroy?: () => void }).destroy?.()),
    );
  }
  return result;
}
