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
 * The access checks of `serveMcpHttp`, in the MCP specification's order: `Host` names this server
 * and an `Origin` is its own (`403`), then the bearer token, compared in constant time (`401`).
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

/** The largest `POST` body `serveMcpHttp` reads (the SDK transport's own default). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Reads a request's body as JSON, at most 4 MiB; else the status and JSON-RPC code to answer
 * (`413` too big, `415` not a JSON `Content-Type`, `400`/`-32700` not JSON).
 */
export async function readJsonBody(
  req: IncomingMessage,
): Promise<{ value?: unknown; error?: { status: number; message: string; code: number } }> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/json') {
    return {
      error: {
        status: 415,
        message: 'Unsupported Media Type: Content-Type must be application/json',
        code: -32000,
      },
    };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      return {
        error: { status: 413, message: `Payload Too Large: at most ${MAX_BODY_BYTES} bytes`, code: -32000 },
      };
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { error: { status: 400, message: 'Parse error: Invalid JSON', code: -32700 } };
  }
}
