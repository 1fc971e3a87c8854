import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { mapDirect } from '../core/map-direct.js';
import { operate } from '../core/operate.js';
import { optionError } from '../core/option-error.js';
import { isTerminalSize, type TerminalSize } from '../core/terminal-size.js';
import { readTty } from '../sources/exec/exec-options.js';
import type { ExecOptions } from '../sources/exec/exec-types.js';

/**
 * Marks a terminal run's events with the size they were written for, so that its page draws them
 * on a terminal (docs/web.md, "Terminal runs"): `metadata.terminal: { columns, rows }` on the
 * first output event and on the first after each `tty.resize` value. Give it the run's `tty`
 * option (checked as `exec` checks it); events pass through unchanged otherwise, with their demand.
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
