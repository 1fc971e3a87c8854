import type { IncomingMessage } from 'node:http';

/** The largest `POST` body `serveMcpHttp` reads (the SDK transport's own default). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Reads a request's body as JSON, at most 4 MiB: `{ value }`, or `{ error }` with the status and
 * JSON-RPC code to answer — `413` for a body over the bound, `415` for a `Content-Type` that is
 * not JSON, `400` (`-32700`) for text that is not JSON. Internal to `sluice/mcp`.
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
