import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execa, type ResultPromise } from 'execa';
import { CLI } from '../../support/sluice-cli.js';

/** A running `sluice mcp --http` process: its endpoint, its token (if any), and `stop()`. */
export interface McpHttpProcess {
  readonly url: string;
  readonly port: number;
  readonly token: string | undefined;
  readonly child: ResultPromise<{ reject: false; all: false }>;
  /** SIGTERM, then waits for the exit; resolves the exit code. */
  stop(): Promise<number | undefined>;
}

/** Starts `sluice mcp --http <args>` as a user would and waits for the line that says where it serves. */
export async function startMcpHttp(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<McpHttpProcess> {
  const child = execa(process.execPath, [CLI, 'mcp', '--http', ...args], {
    reject: false,
    all: false,
    env,
  });
  let stderr = '';
  const ready = await new Promise<{ url: string; token: string | undefined }>((resolve, reject) => {
    const onData = (data: Buffer) => {
      stderr += data.toString('utf8');
      const url = /serving MCP \(Streamable HTTP\) at (\S+) /.exec(stderr)?.[1];
      const tokenLine = /sluice mcp: (token (\S+)|no token required)/.exec(stderr);
      if (url === undefined || tokenLine === null) return;
      child.stderr?.off('data', onData);
      const token = tokenLine[2] === '(SLUICE_MCP_TOKEN)' ? env.SLUICE_MCP_TOKEN : tokenLine[2];
      resolve({ url, token: token?.replace(/:$/, '') });
    };
    child.stderr?.on('data', onData);
    child.then((result) => reject(new Error(`sluice mcp --http exited ${result.exitCode}: ${stderr}`)));
  });
  return {
    ...ready,
    port: Number(new URL(ready.url).port),
    child,
    stop: async () => {
      child.kill('SIGTERM');
      return (await child).exitCode;
    },
  };
}

/** The SDK's own Client over its Streamable HTTP transport, with the bearer token. */
export async function connectHttp(url: string, token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } },
    reconnectionOptions: {
      initialReconnectionDelay: 100,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 5,
    },
  });
  await client.connect(transport);
  return client;
}

/** sh printing 0..19999, a line each, in 20 bursts of 1000 lines 30 ms apart (the call lasts ~4 s). */
export const TWENTY_THOUSAND =
  'i=0; while [ $i -lt 20000 ]; do seq $i $((i+999)); i=$((i+1000)); sleep 0.2; done';
export const EXPECTED = Array.from({ length: 20_000 }, (_, index) => String(index));

/** Calls the 20 000-line command, cutting the event stream with `cut` once at 5 000 lines and once at 12 000 (`dropped`: how many streams each cut dropped). */
export async function callWithTwoCuts(client: Client, cut: () => number) {
  const lines: string[] = [];
  const dropped: number[] = [];
  const result = await client.callTool(
    { name: 'Exec', arguments: { argv: ['sh', '-c', TWENTY_THOUSAND] } },
    undefined,
    {
      onprogress: (update) => {
        lines.push(...(update.message ?? '').split('\n').filter((line) => line !== ''));
        if (
          (dropped.length === 0 && lines.length >= 5_000) ||
          (dropped.length === 1 && lines.length >= 12_000)
        ) {
          dropped.push(cut());
        }
      },
      timeout: 60_000,
    },
  );
  return { lines, dropped, result };
}
