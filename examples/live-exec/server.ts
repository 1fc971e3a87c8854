import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tap } from 'rxjs';
import type { SseStream } from '../../src/adapters/sse/sse-stream.js';
import { toServerSentEvents } from '../../src/adapters/to-server-sent-events.js';
import { type ExecResult, exec } from '../../src/sources/exec.js';
import { bundlePage } from './bundle-page.js';
import { pageHtml } from './page-html.js';

/** Options of {@link startLiveExecServer}. */
export interface LiveExecServerOptions {
  /** The command every run starts. */
  readonly file: string;
  readonly args?: readonly string[];
  /** Default `0` (any free port). */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** The browser's reconnection delay sent as `retry:`. Default `250`. */
  readonly retryMs?: number;
}

/** One run of the command, followed over SSE. */
export interface LiveRun {
  readonly id: string;
  readonly stream: SseStream;
  /** The command's result, once it exited. */
  result: ExecResult | undefined;
}

/** A running live-exec server. */
export interface LiveExecServer {
  readonly url: string;
  readonly runs: ReadonlyMap<string, LiveRun>;
  /** `Last-Event-ID` of every events request, in order (`undefined` for a fresh connection). */
  readonly resumes: Array<string | undefined>;
  /** Drops every SSE connection without cancelling the runs (the page reconnects and resumes). */
  dropConnections(): void;
  close(): Promise<void>;
}

/**
 * The live-exec example server: `GET /` serves the page, `GET /page.js` its script (the bundled
 * `sluice/browser` page), `POST /runs` starts the command with `exec` and answers
 * `{ id, events }`, `GET /runs/:id/events` follows a run over SSE (with resume), `DELETE
 * /runs/:id/events` cancels it (killing its process group).
 *
 * @example
 * ```ts
 * const server = await startLiveExecServer({ file: 'sh', args: ['-c', 'for i in 1 2 3; do echo $i; sleep 1; done'], port: 8080 });
 * console.log(`open ${server.url}`);
 * ```
 */
export async function startLiveExecServer(options: LiveExecServerOptions): Promise<LiveExecServer> {
  const args = options.args ?? [];
  const script = await bundlePage();
  const html = pageHtml([options.file, ...args].join(' '));
  const runs = new Map<string, LiveRun>();
  const resumes: Array<string | undefined> = [];
  let nextId = 1;

  const startRun = (res: ServerResponse) => {
    const id = String(nextId++);
    const run: LiveRun = { id, stream: undefined as unknown as SseStream, result: undefined };
    const events = exec(options.file, args, { reject: false }).pipe(
      tap((event) => {
        if (event.kind === 'exit') run.result = event.content;
      }),
    );
    (run as { stream: SseStream }).stream = toServerSentEvents(events, {
      retryMs: options.retryMs ?? 250,
      replay: { maxEvents: 50_000, maxBytes: 32 << 20 },
    }).start();
    runs.set(id, run);
    res
      .writeHead(201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id, events: `/runs/${id}/events` }));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (req.method === 'GET' && path === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else if (req.method === 'POST' && path === '/runs') {
      startRun(res);
    } else if (/^\/runs\/\d+\/events$/.test(path)) {
      const run = runs.get(path.split('/')[2] ?? '');
      if (run === undefined) res.writeHead(404).end('no such run');
      else {
        if (req.method === 'GET') resumes.push(req.headers['last-event-id'] as string | undefined);
        run.stream.serve(req, res);
      }
    } else {
      res.writeHead(404).end('not found');
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/`,
    runs,
    resumes,
    dropConnections: () => {
      for (const run of runs.values()) run.stream.disconnectClients();
    },
    close: async () => {
      for (const run of runs.values()) run.stream.cancel('server closed');
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
