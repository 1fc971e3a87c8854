import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { faviconSvg } from './favicon-svg.js';
import { loadPageScript } from './load-page-script.js';
import { pageCss } from './page-css.js';
import { isRunLimitError } from './run-limit-error.js';
import { renderRunPage } from './run-page-html.js';
import type { RunRegistry } from './run-registry.js';
import type { WebGuard } from './web-guard.js';
import type { WebRun } from './web-run.js';
import { writeStoredLog } from './write-stored-log.js';

/**
 * Options of {@link createWebHandler}.
 *
 * @example
 * ```ts
 * import { createWebHandler, type WebHandlerOptions } from 'sluice/web';
 * const options: WebHandlerOptions = {
 *   registry,
 *   guard,
 *   start: () => registry.start(exec('make', [], { reject: false }), { command: 'make' }), // enables POST /runs
 * };
 * ```
 */
export interface WebHandlerOptions {
  /** The runs served. */
  readonly registry: RunRegistry;
  /** The access checks (see `createWebGuard`). */
  readonly guard: WebGuard;
  /** Starts a run for `POST /runs` (and the page's "Run again"); absent: `POST /runs` is refused. */
  readonly start?: () => WebRun;
  /** The run `/` shows. Default: the newest run held. */
  readonly home?: () => WebRun | undefined;
}

/**
 * A `node:http` request handler; resolves `true` when it answered the request (`false`: not one
 * of its paths, so an app can go on routing).
 *
 * @example
 * ```ts
 * createServer(async (req, res) => {
 *   if (!(await handler(req, res))) res.writeHead(404).end();
 * });
 * ```
 */
export type WebHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; " +
  "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const RUN_PATH = /^\/runs\/([^/]{1,600})(\/events|\/log)?$/;

const decode = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

/**
 * The HTTP side of `sluice exec --web`, for an app that serves its own runs:
 *
 * | request                 | answer                                                            |
 * | ----------------------- | ----------------------------------------------------------------- |
 * | `GET /`                 | the page of the home run (the newest by default)                  |
 * | `GET /runs/:id`         | the page of that run                                              |
 * | `GET /runs/:id/events`  | its events over SSE (resume with `Last-Event-ID`; see `docs/sse.md`) |
 * | `GET /runs/:id/log`     | its full log, as a download (what the store retains of a run held elsewhere) |
 * | `DELETE /runs/:id`      | cancels it (`by: 'page'`), wherever it runs: `204`; `409` if it had ended |
 * | `POST /runs`            | starts a run with `start()`: `201 {id, page, events}`; `429` past `maxRuns` |
 * | `GET /assets/page.js`, `/assets/page.css`, `/assets/favicon.svg` | the page's files |
 *
 * Every request passes the {@link WebGuard} first: `Host` always; the token for all but the
 * assets; the token and a same-origin `Origin` for `DELETE` and `POST`. No CORS headers are
 * sent. A run is looked up with `registry.find`: the registry's own runs, and — when it shares a
 * run store with other servers — theirs; one the store no longer has answers `404`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createWebGuard, createWebHandler, RunRegistry } from 'sluice/web';
 *
 * const registry = new RunRegistry();
 * const guard = createWebGuard({ token, hosts: ['127.0.0.1', 'localhost'], port: 8080 });
 * const handler = createWebHandler({ registry, guard });
 * createServer(async (req, res) => {
 *   if (!(await handler(req, res))) res.writeHead(404).end('not found');
 * }).listen(8080, '127.0.0.1');
 * ```
 */
export function createWebHandler(options: WebHandlerOptions): WebHandler {
  const { registry, guard, start, home = () => registry.latest() } = options;
  const text = (
    res: ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ): true => {
    res
      .writeHead(status, {
        ...SECURITY_HEADERS,
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
      })
      .end(body);
    return true;
  };
  const asset = (
    res: ServerResponse,
    type: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ) => {
    res
      .writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': 'no-cache', ...headers })
      .end(body);
  };
  const script = async (req: IncomingMessage, res: ServerResponse) => {
    const gzipped = await loadPageScript();
    const type = 'text/javascript; charset=utf-8';
    if (/\bgzip\b/.test(String(req.headers['accept-encoding']))) {
      asset(res, type, gzipped, { 'content-encoding': 'gzip', vary: 'accept-encoding' });
    } else asset(res, type, gunzipSync(gzipped), { vary: 'accept-encoding' });
  };
  const page = (req: IncomingMessage, res: ServerResponse, run: WebRun | undefined) => {
    if (run === undefined) {
      text(res, 404, 'No such run: it ended and was freed, or never existed.');
      return;
    }
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': PAGE_POLICY,
    };
    if (guard.tokenFromQuery(req)) headers['set-cookie'] = guard.cookie(req);
    const elapsedMs = (run.endedAt ?? registry.config.scheduler.now()) - run.startedAt;
    res
      .writeHead(200, headers)
      .end(renderRunPage({ id: run.id, command: run.command, elapsedMs, canStart: start !== undefined }));
  };

  return async (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0] as string;
    const method = req.method ?? 'GET';
    if (path.startsWith('/assets/')) {
      const refusal = guard.checkHost(req);
      if (refusal) return text(res, refusal.status, refusal.message);
      if (method !== 'GET' && method !== 'HEAD')
        return text(res, 405, 'Method not allowed', { allow: 'GET' });
      if (path === '/assets/page.js') await script(req, res);
      else if (path === '/assets/page.css') asset(res, 'text/css; charset=utf-8', pageCss);
      else if (path === '/assets/favicon.svg') asset(res, 'image/svg+xml', faviconSvg);
      else text(res, 404, 'Not found');
      return true;
    }
    if (path === '/favicon.ico') {
      res.writeHead(301, { ...SECURITY_HEADERS, location: '/assets/favicon.svg' }).end();
      return true;
    }
    const match = RUN_PATH.exec(path);
    if (path !== '/' && path !== '/runs' && match === null) return false;
    const write = method !== 'GET' && method !== 'HEAD';
    const refusal = guard.check(req, { write });
    if (refusal) return text(res, refusal.status, refusal.message);

    if (path === '/') {
      if (write) return text(res, 405, 'Method not allowed', { allow: 'GET' });
      const run = home();
      if (run === undefined) return text(res, 404, "No run to show here: open a run's page, /runs/<id>.");
      page(req, res, run);
      return true;
    }
    if (path === '/runs') {
      if (method !== 'POST') return text(res, 405, 'Method not allowed', { allow: 'POST' });
      if (start === undefined) return text(res, 405, 'This server does not start runs', { allow: '' });
      let run: WebRun;
      try {
        run = start();
      } catch (error) {
        if (isRunLimitError(error)) return text(res, 429, error.message);
        throw error;
      }
      const body = JSON.stringify({ id: run.id, page: `/runs/${run.id}`, events: `/runs/${run.id}/events` });
      return text(res, 201, body, { 'content-type': 'application/json' });
    }
    const [, segment, sub] = match as RegExpExecArray;
    const id = decode(segment as string);
    const run = id === undefined ? undefined : await registry.find(id);
    if (sub === undefined) {
      if (method === 'DELETE') {
        if (run === undefined) return text(res, 404, 'No such run');
        if (!(await run.cancel('page'))) return text(res, 409, `Run ${run.id} has already ended`);
        res.writeHead(204, SECURITY_HEADERS).end();
      } else if (!write) page(req, res, run);
      else text(res, 405, 'Method not allowed', { allow: 'GET, DELETE' });
      return true;
    }
    if (write) return text(res, 405, 'Method not allowed', { allow: 'GET' });
    if (run === undefined) return text(res, 404, 'No such run: it ended and was freed, or never existed.');
    if (sub === '/events') {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      run.follow(req, res);
      return true;
    }
    const download = {
      ...SECURITY_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `attachment; filename="sluice-${run.id}.log"`,
      'cache-control': 'no-store',
    };
    const log = run.log;
    if (!run.held) {
      // Held by another server (which spools its full log): what the store still holds of it.
      const info = await registry.store.info(run.id);
      if (info === undefined) return text(res, 404, 'No such run: the run store no longer has it.');
      res.writeHead(200, download);
      writeStoredLog(registry.store, run.id, info.next - 1, res);
      return true;
    }
    if (log === undefined || log.error !== undefined) return text(res, 404, 'This server keeps no full log');
    if (run.ended) await log.end();
    res.writeHead(200, download);
    const file = createReadStream(log.path);
    file.on('error', () => res.destroy());
    file.pipe(res);
    return true;
  };
}
