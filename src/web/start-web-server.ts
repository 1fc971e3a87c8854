import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { optionError } from '../core/option-error.js';
import { readPort } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { createWebHandler } from './create-web-handler.js';
import type { RegistryEntry } from './registry-entry.js';
import type { RunRegistry } from './run-registry.js';
import { createWebGuard, type WebGuard } from './web-guard.js';

/** Options of {@link startWebServer}. */
export interface WebServerOptions {
  readonly registry: RunRegistry;
  /** The address to bind. Default `127.0.0.1`. */
  readonly host?: string;
  /** The port; `0` (the default) picks a free one. */
  readonly port?: number;
  /** The access token. Default: 24 random URL-safe characters. */
  readonly token?: string;
  /** More names the server may be reached by (checked against `Host`). */
  readonly allowedHosts?: readonly string[];
  /** Starts a run for `POST /runs` (the page's "Run again"). Default: none (refused). */
  readonly start?: () => RegistryEntry;
  /** The run `/` shows. Default: the newest. */
  readonly home?: () => RegistryEntry | undefined;
}

/** A running sluice web server. */
export interface WebServer {
  /** The page's URL, with the access token (print it; it is the key). */
  readonly url: string;
  /** `http://host:port`, without the token. */
  readonly origin: string;
  readonly token: string;
  readonly guard: WebGuard;
  readonly server: Server;
  /** Stops listening and drops every connection (the registry is left alone). */
  close(): Promise<void>;
}

/**
 * Serves a {@link RunRegistry}'s runs on a new `node:http` server (`createWebHandler`'s routes,
 * `createWebGuard`'s checks). The names accepted as `Host`: docs/web.md, "Safe by default".
 *
 * @example
 * ```ts
 * import { exec } from 'sluice';
 * import { RunRegistry, startWebServer } from 'sluice/web';
 *
 * const registry = new RunRegistry();
 * registry.start(exec('npm', ['test'], { reject: false }), { command: 'npm test' });
 * const server = await startWebServer({ registry });
 * console.log(`open ${server.url}`);
 * ```
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['registry', 'host', 'port', 'token', 'allowedHosts', 'start', 'home']);
  const { registry, host = '127.0.0.1', allowedHosts = [] } = options;
  if (typeof registry?.start !== 'function') throw optionError('registry', 'a RunRegistry', registry);
  if (typeof host !== 'string' || host === '') throw optionError('host', 'a host name or address', host);
  const port = readPort(options, { listens: true });
  if (!Array.isArray(allowedHosts) || allowedHosts.some((name) => typeof name !== 'string' || name === '')) {
    throw optionError('allowedHosts', 'an array of host names', allowedHosts);
  }
  const token = options.token ?? randomBytes(18).toString('base64url');
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => handle?.(req, res));
  const address = await listen(server, port, host);
  const bound = address.address;
  const guard = createWebGuard({ token, hosts: hostsOf(bound, host, allowedHosts), port: address.port });
  const handler = createWebHandler({
    registry,
    guard,
    ...(options.start === undefined ? {} : { start: options.start }),
    ...(options.home === undefined ? {} : { home: options.home }),
  });
  handle = (req, res) => {
    handler(req, res).then(
      (handled) => {
        if (!handled) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      },
      (error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`Internal error: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  };
  const shown = isIP(bound) === 6 ? `[${bound}]` : bound === '0.0.0.0' ? '127.0.0.1' : bound;
  const origin = `http://${bound === '::' ? '[::1]' : shown}:${address.port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    guard,
    server,
    close: () => closeServer(server),
  };
}

/** Binds `server` to `host:port`: its address, or the error of the bind. Internal. */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Stops listening and drops every connection. Internal. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The names a server bound to `bound` accepts in `Host` (docs/web.md, "Safe by default"). Internal. */
export function hostsOf(bound: string, host: string, allowed: readonly string[]): string[] {
  const hosts = [bound, ...allowed];
  if (isIP(host) === 0) hosts.push(host);
  if (bound === '0.0.0.0' || bound === '::') hosts.push('*ip', 'localhost');
  else if (bound.startsWith('127.') || bound === '::1') hosts.push('localhost');
  return hosts;
}
