import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { optionError } from '../core/option-error.js';
import { readPort } from '../core/read-integer.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';

/** Options of {@link createWebGuard}. */
export interface WebGuardOptions {
  /** The access token every request but the page's static files must carry. */
  readonly token: string;
  /**
   * The host names a request's `Host` may carry: the address the server is bound to, and any
   * name it is reached by — with the server's own `port`, or with the port given here
   * (`lb.example.com:443`: the load balancer in front of it). `'*ip'` admits any IP literal (for
   * a server bound to `0.0.0.0` or `::`: an IP address cannot be rebound, a DNS name can).
   */
  readonly hosts: readonly string[];
  /** The port a request's `Host` must carry (the server's own) unless its entry in `hosts` names one. */
  readonly port: number;
  /** The cookie that carries the token. Default `sluice-<port of the request's Host>` (docs/web.md, "Safe by default"). */
  readonly cookieName?: string;
}

/** Why a request was refused: an HTTP status and a message for the response body. */
export interface WebRefusal {
  readonly status: 401 | 403;
  readonly message: string;
}

/** The access checks of a sluice web server (see {@link createWebGuard}). */
export interface WebGuard {
  /** The `Host` check alone (for the page's static files). */
  checkHost(req: IncomingMessage): WebRefusal | undefined;
  /** Every check a request needs: `Host`, the token, and for a `write` a same-origin `Origin`. */
  check(req: IncomingMessage, options: { write: boolean }): WebRefusal | undefined;
  /** Whether the request carried the token in its query (the first visit: set the cookie). */
  tokenFromQuery(req: IncomingMessage): boolean;
  /**
   * The `Set-Cookie` value that stores the token (HttpOnly, SameSite=Strict, path `/`), named for
   * `req`'s `Host` (see {@link WebGuardOptions.cookieName}; without `req`: the server's own port).
   */
  cookie(req?: IncomingMessage): string;
  /** The cookie's name for requests to the server's own port. */
  readonly cookieName: string;
}

/**
 * The access control of a sluice web server: `Host` must name it (against DNS rebinding), the
 * token is required but for the static files, and a state-changing request needs a same-origin
 * `Origin`; no CORS headers. What each request needs and why: docs/web.md, "Safe by default".
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createWebGuard } from 'sluice/web';
 *
 * const guard = createWebGuard({ token: 'f3…', hosts: ['127.0.0.1', 'localhost'], port: 8080 });
 * createServer((req, res) => {
 *   const refusal = guard.check(req, { write: req.method !== 'GET' });
 *   if (refusal) return void res.writeHead(refusal.status).end(refusal.message);
 *   res.end('welcome');
 * }).listen(8080, '127.0.0.1');
 * ```
 */
export function createWebGuard(options: WebGuardOptions): WebGuard {
  const { token, port, fixedName } = readGuardOptions(options);
  const cookieName = fixedName ?? `sluice-${port}`;
  const cookieNameOf = (req: IncomingMessage | undefined) =>
    fixedName ?? `sluice-${splitHost(req?.headers.host ?? '')?.port ?? port}`;
  const names = hostNames(options.hosts, port);
  const anyIp = names.has(`*ip:${port}`);
  const expected = Buffer.from(token);
  const matches = (candidate: string | undefined) => {
    if (candidate === undefined) return false;
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const checkHost = (req: IncomingMessage): WebRefusal | undefined => {
    const host = req.headers.host ?? '';
    const parsed = splitHost(host);
    const allowed =
      parsed !== undefined &&
      (names.has(`${parsed.name}:${parsed.port}`) ||
        (anyIp && parsed.port === port && isIP(parsed.name.replace(/^\[|\]$/g, '')) !== 0));
    if (allowed) return undefined;
    return {
      status: 403,
      message: `Forbidden: \`Host: ${host.slice(0, 100)}\` does not name this server (a DNS rebinding guard). Open the URL sluice printed, or allow this name (--allow-host).`,
    };
  };

  const tokenOf = (req: IncomingMessage): string | undefined => {
    const header = req.headers['x-sluice-token'];
    if (typeof header === 'string') return header;
    const authorization = req.headers.authorization;
    if (authorization?.startsWith('Bearer ')) return authorization.slice(7);
    const fromCookie = readCookie(req.headers.cookie, cookieNameOf(req));
    if (fromCookie !== undefined) return fromCookie;
    return queryToken(req);
  };

  return {
    cookieName,
    checkHost,
    check(req, { write }) {
      const host = checkHost(req);
      if (host) return host;
      const given = tokenOf(req);
      if (given === undefined) {
        return {
          status: 401,
          message: 'Unauthorized: open the URL sluice printed (it carries the access token).',
        };
      }
      if (!matches(given)) return { status: 403, message: 'Forbidden: wrong access token.' };
      if (write) {
        const origin = req.headers.origin;
        if (origin !== `http://${req.headers.host}`) {
          return {
            status: 403,
            message: `Forbidden: a state-changing request must come from this server's own page (Origin \`${String(origin).slice(0, 100)}\`).`,
          };
        }
      }
      return undefined;
    },
    tokenFromQuery: (req) => matches(queryToken(req)),
    cookie: (req) => `${cookieNameOf(req)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
  };
}

/** The guard's options, checked: the token, the port, the fixed cookie name if any. */
function readGuardOptions(options: WebGuardOptions): {
  token: string;
  port: number;
  fixedName: string | undefined;
} {
  if (typeof options !== 'object' || options === null) throw optionError(undefined, 'an object', options);
  rejectUnknownOptions(options, ['token', 'hosts', 'port', 'cookieName']);
  const { token, hosts } = options;
  if (typeof token !== 'string' || token.length < 16) {
    throw optionError('token', 'a string of at least 16 characters', token);
  }
  if (!Array.isArray(hosts) || hosts.some((host) => typeof host !== 'string' || host === '')) {
    throw optionError('hosts', 'an array of host names', hosts);
  }
  const port = readPort(options);
  const fixedName = options.cookieName;
  if (fixedName !== undefined && (typeof fixedName !== 'string' || !/^[A-Za-z0-9_-]+$/.test(fixedName))) {
    throw optionError('cookieName', 'a cookie name (letters, digits, `_`, `-`)', fixedName);
  }
  return { token, port, fixedName };
}

/** The `name:port` pairs a `Host` header may name: `name` alone with the server's port, `name:port` as given. */
function hostNames(hosts: readonly string[], port: number): Set<string> {
  const names = new Set<string>();
  for (const host of hosts) {
    const withPort = /^(.+):(\d{1,5})$/.exec(host);
    if (withPort !== null && isIP(host) !== 6)
      names.add(`${normalizeHost(withPort[1] as string)}:${withPort[2]}`);
    else names.add(`${normalizeHost(host)}:${port}`);
  }
  return names;
}

function queryToken(req: IncomingMessage): string | undefined {
  const query = (req.url ?? '').indexOf('?');
  if (query === -1) return undefined;
  return new URLSearchParams((req.url ?? '').slice(query + 1)).get('token') ?? undefined;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A host name in the form `Host` carries it: lower case, IPv6 in brackets. */
function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  return isIP(lower) === 6 ? `[${lower}]` : lower;
}

/** `name` and `port` of a `Host` header (port 80 when absent), or `undefined` when malformed. */
function splitHost(host: string): { name: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  if (match === null) return undefined;
  return { name: (match[1] as string).toLowerCase(), port: match[2] === undefined ? 80 : Number(match[2]) };
}
