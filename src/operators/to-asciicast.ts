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
 * Turns a run's events into an asciicast v2 recording, one line of the file (`\n` included) per
 * value (docs/terminal.md, "Recording"):
 *
 * - the header (`version`, `width`, `height`, `timestamp`, `title` when given) when the first
 *   event comes — or when the source ends with none, so the file is valid;
 * - `[time, "o", data]` per event with text or bytes (seconds since the first event; bytes decoded
 *   as UTF-8, a character split at the end written as U+FFFD);
 * - an event's `metadata.terminal` size sizes the header when first, and writes
 *   `[time, "r", "100x30"]` after that.
 *
 * Times are the events' own `metadata.at` (ms of the Unix epoch; one without it takes the last),
 * else `scheduler.now()`. Other events write nothing; errors pass through after the lines before
 * them. Demand passes through.
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
