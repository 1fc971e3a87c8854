import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { mapDirect } from '../core/map-direct.js';
import { operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { isTerminalSize, type TerminalSize } from '../core/terminal-size.js';
import { readTty } from '../sources/exec/exec-options.js';
import type { ExecOptions } from '../sources/exec/exec-types.js';

/**
 * Says in a terminal run's events what terminal they were written for, so that its page draws
 * them on a terminal (xterm.js) of that size rather than as log lines (docs/web.md, "Terminal
 * runs"): the first `stdout` or `stderr` event gets `metadata.terminal: { columns, rows }`, and so
 * does the first one after each value of `tty.resize` (the size it gave). Give it the `tty` option
 * the run was started with (checked as `exec` checks it). Events pass through otherwise
 * unchanged, with their demand.
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * import { markTerminalSize, RunRegistry } from 'sluice/web';
 *
 * const tty = { columns: 100, rows: 30 };
 * const events = exec('make', [], { tty, reject: false }).pipe(markTerminalSize(tty));
 * new RunRegistry().start(events, { command: 'make' });
 * ```
 */
export function markTerminalSize<T extends ChunkEvent<unknown>>(
  tty: NonNullable<ExecOptions['tty']>,
): MonoTypeOperatorFunction<T> {
  const resolved = readTty({ tty });
  if (resolved === undefined) throw optionError('tty', 'a terminal: `true` or an object', tty);
  const { columns, rows, resize } = resolved;
  return operate<T, T>((source, subscriber) => {
    let pending: TerminalSize | undefined = { columns, rows };
    const resizes = resize?.subscribe((next) => {
      if (isTerminalSize(next)) pending = { columns: next.columns, rows: next.rows };
    });
    const mark = (event: T): T => {
      if (pending === undefined || (event.kind !== 'stdout' && event.kind !== 'stderr')) return event;
      const terminal = pending;
      pending = undefined;
      return { ...event, metadata: { ...event.metadata, terminal } };
    };
    mapDirect(mark)(source).subscribe(subscriber);
    return () => resizes?.unsubscribe();
  });
}
