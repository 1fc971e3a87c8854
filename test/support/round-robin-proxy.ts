import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy forwarded: its method, `Last-Event-ID`, the JSON-RPC method of a POST, and the upstream port. */
export interface ProxiedRequest {
  readonly method: string;
  readonly lastEventId: string | undefined;
  readonly rpc: string | undefined;
  readonly target: number;
}

/** A round-robin HTTP proxy on 127.0.0.1 in front of the servers on `targets` (their ports, read at each request). */
export interface RoundRobinProxy {
  readonly port: number;
  readonly url: string;
  /** Every request forwarded, in arrival order. */
  readonly log: ProxiedRequest[];
  /**
   * Picks the target of a request instead of the round robin when it returns a port (a test
   * sends a cancel to the instance that does not run the call).
   */
  pick: ((request: Omit<ProxiedRequest, 'target'>) => number | undefined) | undefined;
  /** Destroys the sockets of every open event-stream response (both sides); resolves how many. */
  cut(): number;
  close(): Promise<void>;
}

/**
 * Starts a load balancer as hosted MCP servers sit behind: each request goes to the next target
 * in turn (no stickiness), forwarded with its headers unchanged (`Host` stays the proxy's) and its
 * body and answer streamed both ways. `cut()` drops the open event streams as a network would:
 * the client's socket and the upstream one are destroyed.
 */
export async function startRoundRobinProxy(targets: readonly number[]): Promise<RoundRobinProxy> {
  const log: ProxiedRequest[] = [];
  let proxy: RoundRobinProxy | undefined;
  const open = new Set<{ client: IncomingMessage; upstream: IncomingMessage }>();
  let next = 0;
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    let rpc: string | undefined;
    try {
      rpc = body.length === 0 ? undefined : (JSON.parse(body.toString('utf8')) as { method?: string }).method;
    } catch {
      rpc = undefined;
    }
    const lastEventId = req.headers['last-event-id'] as string | undefined;
    const picked = proxy?.pick?.({ method: req.method ?? '', lastEventId, rpc });
    const target = picked ?? (targets[next % targets.length] as number);
    if (picked === undefined) next += 1;
    log.push({ method: req.method ?? '', lastEventId, rpc, target });
    const upstreamRequest = httpRequest(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        const stream = { client: req, upstream };
        if (String(upstream.headers['content-type']).includes('text/event-stream')) open.add(stream);
        upstream.pipe(res);
        const forget = () => open.delete(stream);
        upstream.once('close', forget);
        res.once('close', () => {
          forget();
          upstream.destroy();
        });
      },
    );
    upstreamRequest.on('error', () => res.destroy());
    upstreamRequest.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy = {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    pick: undefined,
    cut: () => {
      const streams = [...open];
      open.clear();
      for (const { client, upstream } of streams) {
        client.socket.destroy();
        upstream.socket.destroy();
      }
      return streams.length;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
