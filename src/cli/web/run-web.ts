import { Observable, Subject, tap } from 'rxjs';
import type { ChunkEvent } from '../../core/chunk.js';
import { isCancelledError } from '../../core/errors/cancelled-error.js';
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
 * pages. A page's Cancel aborts `fromPage` (which the caller made part of the command's
 * `cancelSignal`): the process group is killed, sluice says "cancelled" and exits with 130. A
 * signal to sluice (Ctrl-C) cancels it the same way, and every page then says "Cancelled from the
 * terminal". sluice exits when the run ends, once open pages have received the end (at most 2 s
 * later).
 *
 * @example
 * ```ts
 * const fromPage = new AbortController();
 * const events = exec('make', [], { reject: false, cancelSignal: fromPage.signal });
 * const code = await runWeb(events, { host: '127.0.0.1', port: 0, allowHosts: [] }, process, {
 *   live: true, color: true, bufferSize: 16, label: 'make',
 * }, fromPage);
 * ```
 */
export async function runWeb(
  events: Observable<ExecEvent<string | Uint8Array> | ChunkEvent<never>>,
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
  fromPage: AbortController,
): Promise<number> {
  const registry = new RunRegistry({ maxRuns: 1 });
  const relay = new Subject<ChunkEvent<unknown>>();
  let ended = false;
  // The registry's stream unsubscribes this source on cancel: that is a page's cancel (when the
  // run ends otherwise, `ended` is set first).
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
  const teed = events.pipe(
    tap({
      next: (event) => {
        if (event.isFinal) ended = true;
        relay.next(event);
      },
      error: (error: unknown) => {
        ended = true;
        // A cancel (from a page, or a signal to sluice) ends the page's view below, saying who.
        if (!isCancelledError(error)) relay.error(error);
      },
      complete: () => relay.complete(),
    }),
  );
  try {
    return await runText(teed, io, options);
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
