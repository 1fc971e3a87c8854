import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { PageScriptName } from './bundle-page-script.js';
import { loadPageScript } from './load-page-script.js';
import { pageCss } from './page-css.js';
import type { RegistryEntry } from './registry-entry.js';
import { isRunLimitError } from './run-limit-error.js';
import { renderRunPage } from './run-page-html.js';
import type { RunRegistry } from './run-registry.js';
import type { WebGuard } from './web-guard.js';
import { writeStoredLog } from './write-stored-log.js';

/** Options of {@link createWebHandler}. */
export interface WebHandlerOptions {
  readonly registry: RunRegistry;
  /** The access checks (see `createWebGuard`). */
  readonly guard: WebGuard;
  /** Starts a run for `POST /runs` (and the page's "Run again"); absent: `POST /runs` is refused. */
  readonly start?: () => RegistryEntry;
  /** The run `/` shows. Default: the newest run held. */
  readonly home?: () => RegistryEntry | undefined;
}

/**
 * A `node:http` request handler; resolves `true` when it answered the request (`false`: not one
 * of its paths, so an app can go on routing).
 */
export type WebHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
/**
 * The page's Content-Security-Policy. Style elements need the page's nonce: the terminal view
 * (xterm.js) writes its colours and cell sizes into `<style>` elements of its own.
 */
const pagePolicy = (styleNonce: string) =>
  `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${styleNonce}'; style-src-attr 'unsafe-inline'; ` +
  "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const PAGE_SCRIPT = /^\/assets\/(page|terminal)\.js$/;
const RUN_PATH = /^\/runs\/([^/]{1,600})(\/events|\/log)?$/;

const decode = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

/**
 * The HTTP side of `sluice exec --web`, for an app that serves its own runs: the routes are
 * docs/web.md's table under "For apps: `sluice/web`". Every request passes the {@link WebGuard}
 * first. A run is looked up with `registry.find` (a run of a shared store that another server
 * holds too); one the store no longer has answers `404`.
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
  const site: Site = { registry, guard, start, home };
  return async (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0] as string;
    const method = req.method ?? 'GET';
    if (path.startsWith('/assets/')) return serveAsset(req, res, path, site);
    if (path === '/favicon.ico') {
      res.writeHead(301, { ...SECURITY_HEADERS, location: '/assets/favicon.svg' }).end();
      return true;
    }
    const match = RUN_PATH.exec(path);
    if (path !== '/' && path !== '/runs' && match === null) return false;
    const write = method !== 'GET' && method !== 'HEAD';
    const refusal = guard.check(req, { write });
    if (refusal) return sendText(res, refusal.status, refusal.message);
    if (path === '/') return serveHome(req, res, site, write);
    if (path === '/runs') return startRun(res, method, start);
    const [, segment, sub] = match as RegExpExecArray;
    const id = decode(segment as string);
    const run = id === undefined ? undefined : await registry.find(id);
    if (sub === undefined) return serveRun(req, res, site, run, method);
    if (write) return sendText(res, 405, 'Method not allowed', { allow: 'GET' });
    if (run === undefined)
      return sendText(res, 404, 'No such run: it ended and was freed, or never existed.');
    if (sub === '/log') return serveLog(res, run, registry);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    run.follow(req, res);
    return true;
  };
}

/** What the handler serves from: its options, defaults applied. */
interface Site {
  readonly registry: RunRegistry;
  readonly guard: WebGuard;
  readonly start: (() => RegistryEntry) | undefined;
  readonly home: () => RegistryEntry | undefined;
}

function sendText(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): true {
  res
    .writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    })
    .end(body);
  return true;
}

function sendAsset(
  res: ServerResponse,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
) {
  res
    .writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': 'no-cache', ...headers })
    .end(body);
}

/** `/assets/*`: the page's scripts (gzipped when the client takes them), style sheet and icon. */
async function serveAsset(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  site: Site,
): Promise<true> {
  const refusal = site.guard.checkHost(req);
  if (refusal) return sendText(res, refusal.status, refusal.message);
  if (req.method !== undefined && req.method !== 'GET' && req.method !== 'HEAD') {
    return sendText(res, 405, 'Method not allowed', { allow: 'GET' });
  }
  const script = PAGE_SCRIPT.exec(path)?.[1] as PageScriptName | undefined;
  if (script !== undefined) {
    const gzipped = await loadPageScript(script);
    const type = 'text/javascript; charset=utf-8';
    if (/\bgzip\b/.test(String(req.headers['accept-encoding']))) {
      sendAsset(res, type, gzipped, { 'content-encoding': 'gzip', vary: 'accept-encoding' });
    } else sendAsset(res, type, gunzipSync(gzipped), { vary: 'accept-encoding' });
  } else if (path === '/assets/page.css') sendAsset(res, 'text/css; charset=utf-8', pageCss);
  else if (path === '/assets/favicon.svg') sendAsset(res, 'image/svg+xml', faviconSvg);
  else sendText(res, 404, 'Not found');
  return true;
}

/** A run's page (the token from the query becomes a cookie). */
function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  site: Site,
  run: RegistryEntry | undefined,
): true {
  if (run === undefined) return sendText(res, 404, 'No such run: it ended and was freed, or never existed.');
  const styleNonce = randomBytes(16).toString('base64');
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': pagePolicy(styleNonce),
  };
  if (site.guard.tokenFromQuery(req)) headers['set-cookie'] = site.guard.cookie(req);
  const elapsedMs = (run.endedAt ?? site.registry.config.scheduler.now()) - run.startedAt;
  const canStart = site.start !== undefined;
  res
    .writeHead(200, headers)
    .end(renderRunPage({ id: run.id, command: run.command, elapsedMs, canStart, styleNonce }));
  return true;
}

/** `/`: the home run's page. */
function serveHome(req: IncomingMessage, res: ServerResponse, site: Site, write: boolean): true {
  if (write) return sendText(res, 405, 'Method not allowed', { allow: 'GET' });
  const run = site.home();
  if (run === undefined) return sendText(res, 404, "No run to show here: open a run's page, /runs/<id>.");
  return sendPage(req, res, site, run);
}

/** `POST /runs`: starts a run, `201 {id, page, events}`; `429` past the registry's `maxRuns`. */
function startRun(res: ServerResponse, method: string, start: (() => RegistryEntry) | undefined): true {
  if (method !== 'POST') return sendText(res, 405, 'Method not allowed', { allow: 'POST' });
  if (start === undefined) return sendText(res, 405, 'This server does not start runs', { allow: '' });
  let run: RegistryEntry;
  try {
    run = start();
  } catch (error) {
    if (isRunLimitError(error)) return sendText(res, 429, error.message);
    throw error;
  }
  const body = JSON.stringify({ id: run.id, page: `/runs/${run.id}`, events: `/runs/${run.id}/events` });
  return sendText(res, 201, body, { 'content-type': 'application/json' });
}

/** `/runs/:id`: its page, or `DELETE` to cancel it. */
async function serveRun(
  req: IncomingMessage,
  res: ServerResponse,
  site: Site,
  run: RegistryEntry | undefined,
  method: string,
): Promise<true> {
  if (method === 'GET' || method === 'HEAD') return sendPage(req, res, site, run);
  if (method !== 'DELETE') return sendText(res, 405, 'Method not allowed', { allow: 'GET, DELETE' });
  if (run === undefined) return sendText(res, 404, 'No such run');
  if (!(await run.cancel('page'))) return sendText(res, 409, `Run ${run.id} has already ended`);
  res.writeHead(204, SECURITY_HEADERS).end();
  return true;
}

/** `/runs/:id/log`: the full log as a download (what the store holds, for a run held elsewhere). */
async function serveLog(res: ServerResponse, run: RegistryEntry, registry: RunRegistry): Promise<true> {
  const download = {
    ...SECURITY_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'content-disposition': `attachment; filename="sluice-${run.id}.log"`,
    'cache-control': 'no-store',
  };
  if (!run.held) {
    // Held by another server (which spools its full log): what the store still holds of it.
    const info = await registry.store.info(run.id);
    if (info === undefined) return sendText(res, 404, 'No such run: the run store no longer has it.');
    res.writeHead(200, download);
    writeStoredLog(registry.store, run.id, info.next - 1, res);
    return true;
  }
  const log = run.log;
  if (log === undefined || log.error !== undefined)
    return sendText(res, 404, 'This server keeps no full log');
  if (run.ended) await log.end();
  res.writeHead(200, download);
  const file = createReadStream(log.path);
  file.on('error', () => res.destroy());
  file.pipe(res);
  return true;
}

/** The run page's icon, served as `/assets/favicon.svg`: a terminal prompt. */
const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#161b22"/><path d="M8 10l6 6-6 6" fill="none" stroke="#58a6ff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><path d="M16 23h8" stroke="#3fb950" stroke-width="3" stroke-linecap="round"/></svg>`;
