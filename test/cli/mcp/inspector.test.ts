import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../../support/sluice-cli.js';
import { requireTool } from '../../support/system-tools.js';
import { type McpHttpProcess, startMcpHttp } from './mcp-http-server.js';
import { cachedOnNode22, fetchOnNode22, runOnNode22 } from './node22-npx.js';

/**
 * The MCP Inspector's CLI mode against the real `sluice mcp`. The Inspector needs Node ≥ 22.19,
 * which runs here from the npm package `node` (`npx -y node@22`), with the Inspector from npx's
 * cache: `.ci/run` fetches both; elsewhere these tests are skipped with a notice that says how.
 */
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const root = fileURLToPath(new URL('../../../', import.meta.url));

const found = requireTool(
  `the MCP Inspector (${INSPECTOR} on Node 22)`,
  cachedOnNode22(INSPECTOR),
  fetchOnNode22(INSPECTOR),
);

/** `mcp-inspector --cli <args> -- node dist/cli/main.js mcp <server>` (the server on this Node). */
const inspect = (args: string[], server: string[]) =>
  runOnNode22(INSPECTOR, [
    '--cli',
    '--format',
    'json',
    '--cwd',
    root,
    ...args,
    '--',
    process.execPath,
    CLI,
    'mcp',
    ...server,
  ]);

describe.skipIf(found === undefined)('the MCP Inspector (CLI mode) against sluice mcp', () => {
  it('lists the Exec tool, with no schema portability error (--strict)', async () => {
    const listed = await inspect(['--strict', '--method', 'tools/list'], ['--allow', 'sh']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const { result } = JSON.parse(listed.stdout) as {
      result: { tools: { name: string; inputSchema: object }[] };
    };
    expect(result.tools.map((tool) => tool.name)).toEqual(['Exec']);
    // --strict prints each portability problem on stderr (and exits 6 for an error): none here.
    expect(listed.stderr).not.toMatch(/Warning|Error/);
  });

  it('calls the Exec tool, and gets the refusal of a program that is not allowed as an error result', async () => {
    const call = await inspect(
      [
        '--method',
        'tools/call',
        '--tool-name',
        'Exec',
        '--tool-args-json',
        '{"argv":["sh","-c","echo hi from sh"]}',
      ],
      ['--allow', 'sh'],
    );
    expect(call.exitCode, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({
      result: { structuredContent: { exit_code: 0, stdout: 'hi from sh\n' } },
    });
    const refused = await inspect(
      ['--method', 'tools/call', '--tool-name', 'Exec', '--tool-args-json', '{"argv":["rm","-rf","/tmp/x"]}'],
      ['--allow', 'sh'],
    );
    expect(JSON.parse(refused.stdout)).toEqual({
      result: {
        content: [
          {
            type: 'text',
            text: 'Invalid arguments of `Exec`: `argv[0]` must be one of the allowed programs: sh, got "rm" (string) (INVALID_ARGUMENTS)',
          },
        ],
        isError: true,
      },
    });
  });
});

/** `mcp-inspector --cli <url> --transport http --header 'Authorization: Bearer …' <args>`. */
const inspectHttp = (url: string, token: string, args: string[]) =>
  runOnNode22(INSPECTOR, [
    '--cli',
    url,
    '--transport',
    'http',
    '--header',
    `Authorization: Bearer ${token}`,
    '--format',
    'json',
    ...args,
  ]);

describe.skipIf(found === undefined)('the MCP Inspector (CLI mode) against sluice mcp --http', () => {
  let server: McpHttpProcess;
  beforeAll(async () => {
    server = await startMcpHttp(['--allow', 'sh']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists the Exec tool and calls it over Streamable HTTP with the bearer token', async () => {
    const listed = await inspectHttp(server.url, server.token as string, [
      '--strict',
      '--method',
      'tools/list',
    ]);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const { result } = JSON.parse(listed.stdout) as { result: { tools: { name: string }[] } };
    expect(result.tools.map((tool) => tool.name)).toEqual(['Exec']);
    expect(listed.stderr).not.toMatch(/Warning|Error/);
    const call = await inspectHttp(server.url, server.token as string, [
      '--method',
      'tools/call',
      '--tool-name',
      'Exec',
      '--tool-args-json',
      '{"argv":["sh","-c","echo hi over http"]}',
    ]);
    expect(call.exitCode, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({
      result: { structuredContent: { exit_code: 0, stdout: 'hi over http\n' } },
    });
    const refused = await inspectHttp(server.url, 'not-the-token-not-the-token', ['--method', 'tools/list']);
    expect(refused.exitCode).not.toBe(0);
  });
});
