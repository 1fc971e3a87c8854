import {
  asyncScheduler,
  fromEvent,
  identity,
  type MonoTypeOperatorFunction,
  map,
  type Observable,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import type { ChunkEvent, EndSentinel } from '../core/chunk.js';
import { mapDirect } from '../core/map-direct.js';
import type { TerminalSize } from '../core/terminal-size.js';
import { stallTimeout } from '../operators/stall-timeout.js';
import { markTerminalSize } from '../web/mark-terminal-size.js';
import type { CliExecCommand } from './parse-args.js';
import type { CliStreams } from './text-view.js';

/**
 * The `exec` options every way of running `sluice exec` shares (text, `--json`, `--redis --json`),
 * read from its command line: one place, so that a flag such as `--containment` reaches them all.
 * With `--tty` the command's output comes read by read, as the terminal sends it (a progress bar
 * redrawn with `\r` is seen as it is drawn), on a terminal sized by {@link cliTerminal}.
 */
export function cliExecOptions(
  run: CliExecCommand,
  signal: AbortSignal | undefined,
  io: CliStreams,
  view: { statusLine: boolean },
) {
  return {
    timeoutMs: run.timeoutMs,
    maxOutputBytes: run.maxOutputBytes,
    containment: run.containment,
    ...(run.tty ? { tty: cliTerminal(io, view.statusLine), lines: false } : {}),
    ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
    ...(signal === undefined ? {} : { cancelSignal: signal }),
  };
}

/**
 * `--tty`: when sluice's own output (`io.stdout`) is a terminal, a terminal of its size, resized
 * with it — less the row sluice's status line takes when it shows one, so the command never draws
 * on it; 80 × 24 otherwise (docs/terminal.md, "On the command line: `sluice exec --tty`").
 */
export function cliTerminal(
  io: CliStreams,
  statusLine: boolean,
): TerminalSize & { resize?: Observable<TerminalSize> } {
  const { stdout } = io;
  if (stdout.isTTY !== true) return { columns: 80, rows: 24 };
  const taken = statusLine ? 1 : 0;
  const size = () => ({
    columns: Math.max(1, stdout.columns || 80),
    rows: Math.max(1, (stdout.rows || 24) - taken),
  });
  return { ...size(), resize: fromEvent(stdout, 'resize').pipe(map(size)) };
}

/**
 * A terminal run's events marked with its terminal's size (`markTerminalSize`), so that its page
 * and followers, reading it from a store, know it for one, and its output with the time it was read
 * (`metadata.at`, Unix ms), so that `sluice follow --cast` records it as it ran (`toAsciicast`);
 * other runs' events pass unchanged.
 */
export function markTerminal<T extends ChunkEvent<unknown>>(
  options: { tty?: ReturnType<typeof cliTerminal> },
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<T> {
  if (options.tty === undefined) return identity;
  const stamp = mapDirect(
    (event: T): T =>
      event.kind === 'stdout' || event.kind === 'stderr'
        ? { ...event, metadata: { ...event.metadata, at: scheduler.now() } }
        : event,
  );
  const mark = markTerminalSize<T>(options.tty);
  return (source) => mark(stamp(source));
}

/** `--stall-timeout-ms` on a run of `sluice exec`, its warnings on stderr as sluice's own. */
export function cliStallTimeout<T extends ChunkEvent<unknown>>(
  run: CliExecCommand,
  io: CliStreams,
): OperatorFunction<T, T | EndSentinel> {
  return stallTimeout<T>({
    ms: run.stallTimeoutMs,
    logger: { warn: (message) => io.stderr.write(`sluice: ${message}\n`) },
  });
}
