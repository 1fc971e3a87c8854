import { asyncScheduler, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { ChunkEvent } from '../core/chunk.js';
import { isSchedulerLike } from '../core/is-scheduler-like.js';
import { createOperatorSubscriber, operate } from '../core/operate.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { readTerminalSize, terminalSizeOf } from '../core/terminal-size.js';

/** Options of {@link toAsciicast}. Validated when `toAsciicast(config)` is called. */
export interface ToAsciicastConfig {
  /** The terminal's width in the header: give the run's (`exec`'s `tty.columns`). Default 80. */
  readonly columns?: number;
  /** The terminal's height in the header: give the run's (`exec`'s `tty.rows`). Default 24. */
  readonly rows?: number;
  /** The recording's `title` in the header. Default: none. */
  readonly title?: string;
  /** The clock of the event times and of the header's `timestamp`. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Turns a run's events into an asciicast v2 recording, the file format `asciinema play` and
 * `asciinema cat` read (docs/terminal.md, "Recording"). Each value is one line of the file, `\n`
 * included, so writing the values one after another writes the file:
 *
 * - first the header, `{"version":2,"width":…,"height":…,"timestamp":…}` (and `title` when given),
 *   when the first event comes; `timestamp` is that moment in Unix seconds;
 * - then `[time, "o", data]` for each event whose content is text or bytes (`stdout`, and the
 *   `stderr` of a pipe run): `time` is in seconds since the first event, read from `scheduler`,
 *   `data` the content as JSON text (bytes are decoded as UTF-8, a character split between
 *   chunks kept whole; one still split when the source ends is written as U+FFFD, as a terminal
 *   shows it);
 * - an event marked with its terminal's size (`metadata.terminal: { columns, rows }`, as the CLI's
 *   terminal runs are marked, so a run read back from a store records at its size) sizes the
 *   header when it is the first, and writes a resize line, `[time, "r", "100x30"]`, after that.
 *
 * Times are the events' own when they carry one (`metadata.at`, in ms of the Unix epoch, as the
 * CLI stamps its terminal runs' output, so a run read back from a store records as it ran; an event
 * without one, after one that had it, takes the last), else `scheduler.now()` when each comes.
 *
 * Other events (the final `exit`) write no line. A source that ends with no event at all still
 * gives the header, so the file is valid. Errors pass through after the lines before them. Demand
 * passes through.
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs';
 * import { exec } from 'sluice';
 * import { toAsciicast } from 'sluice/operators';
 * const file = createWriteStream('build.cast');
 * exec('make', [], { tty: { columns: 100, rows: 30 } })
 *   .pipe(toAsciicast({ columns: 100, rows: 30, title: 'make' }))
 *   .subscribe({ next: (line) => file.write(line), complete: () => file.end() });
 * // then: asciinema play build.cast
 * ```
 */
export function toAsciicast(config: ToAsciicastConfig = {}): OperatorFunction<ChunkEvent<unknown>, string> {
  rejectUnknownOptions(config, ['columns', 'rows', 'title', 'scheduler']);
  const { columns, rows } = readTerminalSize(config);
  const title = readOption<string, undefined>(
    config,
    'title',
    (value) => typeof value === 'string',
    'a string',
    undefined,
  );
  const scheduler = readOption(config, 'scheduler', isSchedulerLike, 'a SchedulerLike', asyncScheduler);
  return operate((source, subscriber) => {
    let start: number | undefined;
    /** The time the last event said it was read at (`metadata.at`), once one did. */
    let stamped: number | undefined;
    const decoder = new TextDecoder();
    /** Writes the header the first time (sized by `event`'s mark, if any), and gives the time since then in seconds. */
    const elapsed = (event?: ChunkEvent<unknown>): number => {
      const at = event?.metadata?.at;
      if (typeof at === 'number' && Number.isFinite(at)) stamped = at;
      const now = stamped ?? scheduler.now();
      const mark = terminalSizeOf(event?.metadata);
      const first = start === undefined;
      if (start === undefined) {
        start = now;
        const size = mark ?? { columns, rows };
        const header = {
          version: 2,
          width: size.columns,
          height: size.rows,
          timestamp: Math.floor(now / 1000),
          title,
        };
        subscriber.next(`${JSON.stringify(header)}\n`);
      }
      const time = Math.round((now - start) * 1000) / 1_000_000;
      if (!first && mark !== undefined) {
        subscriber.next(`${JSON.stringify([time, 'r', `${mark.columns}x${mark.rows}`])}\n`);
      }
      return time;
    };
    /** The bytes of a character still split at the end, as the terminal would show them (U+FFFD). */
    const flush = (time: number) => {
      const rest = decoder.decode();
      if (rest !== '') subscriber.next(`${JSON.stringify([time, 'o', rest])}\n`);
    };
    source.subscribe(
      createOperatorSubscriber<ChunkEvent<unknown>>(
        subscriber,
        (event) => {
          const time = elapsed(event);
          const data = outputText(event.content, decoder);
          if (data !== undefined && data !== '') subscriber.next(`${JSON.stringify([time, 'o', data])}\n`);
          if (event.isFinal) flush(time);
        },
        () => {
          flush(elapsed());
          subscriber.complete();
        },
        (error) => {
          flush(elapsed());
          subscriber.error(error);
        },
      ),
    );
  });
}

/** The text `content` puts on the terminal, or `undefined` when it is neither text nor bytes. */
function outputText(content: unknown, decoder: TextDecoder): string | undefined {
  if (typeof content === 'string') return content;
  if (content instanceof Uint8Array) return decoder.decode(content, { stream: true });
  return undefined;
}
