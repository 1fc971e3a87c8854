import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createWebGuard } from '../web/web-guard.js';

/**
 * Why a request to `serveMcpHttp` was refused: the HTTP status, the message of the JSON-RPC error
 * body, and headers (`WWW-Authenticate` for a missing or wrong token).
 */
export interface McpHttpRefusal {
  readonly status: 401 | 403;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The access checks of `serveMcpHttp`, in the order the MCP specification's security section
 * asks: `Host` must name this server (DNS rebinding, `403`: the check of `sluice/web`'s guard),
 * an `Origin`, when there is one, must be this server's own (`http://` or `https://` + `Host`,
 * `403`), and `Authorization: Bearer <token>` must carry the token (`401` without it or with a
 * wrong one, compared in constant time) unless `token` is `undefined`. Internal to `sluice/mcp`.
 */
export function mcpHttpGuard(options: {
  readonly token: string | undefined;
  readonly hosts: readonly string[];
  readonly port: number;
}): (req: IncomingMessage) => McpHttpRefusal | undefined {
  // The web guard's token is not used here (MCP carries a bearer token, no cookie, no query).
  const hostGuard = createWebGuard({ token: 'x'.repeat(16), hosts: options.hosts, port: options.port });
  const expected = options.token === undefined ? undefined : Buffer.from(options.token);
  return (req) => {
    const host = hostGuard.checkHost(req);
    if (host !== undefined) {
      return {
        status: 403,
        message: `Forbidden: \`Host: ${String(req.headers.host).slice(0, 100)}\` does not name this server (a DNS rebinding guard; allow the name with --allow-host)`,
      };
    }
    const origin = req.headers.origin;
    if (
      origin !== undefined &&
      origin !== `http://${req.headers.host}` &&
      origin !== `https://${req.headers.host}`
    ) {
      return { status: 403, message: `Forbidden: Origin \`${origin.slice(0, 100)}\` is not this server's` };
    }
    if (expected === undefined) return undefined;
    const authorization = req.headers.authorization;
    if (authorization === undefined || !/^Bearer /i.test(authorization)) {
      return {
        status: 401,
        message: 'Unauthorized: send the token sluice printed as `Authorization: Bearer <token>`',
        headers: { 'www-authenticate': 'Bearer' },
      };
    }
    const given = Buffer.from(authorization.slice(7).trim());
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return {
        status: 401,
        message: 'Unauthorized: wrong token',
        headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
      };
    }
    return undefined;
  };
}
