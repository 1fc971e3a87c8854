import { Observable, Subject, tap } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import type { ExecEvent } from '../../sources/exec.js';
import { RunRegistry } from '../../web/run-registry.js';
import { startWebServer, type WebServer } from '../../web/start-web-server.js';
import type { CliWebOptions } from '../parse-args.js';
import { runText } from '../run-text.js';
import type { CliStreams } from '../text-view.js';

/** How long sluice waits, after the run ended, for open pages to receive the end. */
const FAREWELL_MS = 2000;

/**
 * `sluice exec --web`: runs the command exactly as `sluice exec` does (the terminal view, the exit
 * code), and serves a live page for it (`sluice/web`: the run registry, the guarded handler, the
 * page). The run's events are teed: the terminal view consumes them with demand (a slow terminal
 * pauses the command, as without `--web`), and the run registry records them for any number of
 * pages. Cancel from a page aborts the run like Ctrl-C does (the process group is killed, the
 * exit code is 130); Ctrl-C ends every page's view with "cancelled from the terminal". sluice
 * exits when the run ends, once open pages have received the end (at most 2 s later).
 *
 * @example
 * ```ts
 * const code = await runWeb(exec('make', [], { reject: false }), { host: '127.0.0.1', port: 0, allowHosts: [] }, process, {
 *   live: true, color: true, bufferSize: 16, label: 'make',
 * });
 * ```
 */
export async function runWeb(
  events: Observable<ExecEvent | ChunkEvent<never>>,
  web: CliWebOptions,
  io: CliStreams,
  options: {
    live: boolean;
    color: boolean;
    bufferSize: number;
    label: string;
    echo?: string | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<number> {
  const registry = new RunRegistry({ maxRuns: 1 });
  const relay = new Subject<ChunkEvent<unknown>>();
  const fromPage = new AbortController();
  let ended = false;
  // The registry's stream unsubscribes this source on cancel: that is a page's cancel (the
  // terminal's own abort ends the run first, so `ended` or the abort is already set).
  const source = new Observable<ChunkEvent<unknown>>((subscriber) => {
    const subscription = relay.subscribe(subscriber);
    return () => {
      subscription.unsubscribe();
      if (!ended) fromPage.abort(new Error('cancelled from the web page'));
    };
  });
  const run = registry.start(source, { command: options.echo ?? options.label });
  let server: WebServer;
  try {
    server = await startWebServer({
      registry,
      host: web.host,
      port: web.port,
      allowedHosts: web.allowHosts,
    });
  } catch (error) {
    registry.close();
    io.stderr.write(`sluice: --web: cannot serve on ${web.host}:${web.port}: ${(error as Error).message}\n`);
    return 1;
  }
  io.stderr.write(`sluice: live page: ${server.url}\n`);
  const signal =
    options.signal === undefined ? fromPage.signal : AbortSignal.any([options.signal, fromPage.signal]);
  const teed = events.pipe(
    tap({
      next: (event) => {
        if (event.isFinal) ended = true;
        relay.next(event);
      },
      error: (error: unknown) => {
        ended = true;
        relay.error(error);
      },
      complete: () => relay.complete(),
    }),
  );
  try {
    return await runText(teed, io, { ...options, signal });
  } finally {
    ended = true;
    if (!run.ended) run.cancel('terminal');
    const deadline = performance.now() + FAREWELL_MS;
    while (run.viewers > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.close();
    registry.close();
  }
}
