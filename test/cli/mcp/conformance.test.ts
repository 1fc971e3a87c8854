import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, which } from '../../support/system-tools.js';
import { type McpHttpProcess, startMcpHttp } from './mcp-http-server.js';

/**
 * The official MCP conformance suite, server mode, against a real `sluice mcp --http`. The suite
 * needs Node ≥ 22, which runs here from the npm package `node` (`npx -y node@22`), with the suite
 * from npx's cache: `.ci/run` fetches both; elsewhere this test is skipped with a notice. The
 * suite sends no credentials, so the server runs with `--no-token` (loopback only).
 */
const NODE = 'node@22';
const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const baseline = fileURLToPath(new URL('./conformance-baseline.yml', import.meta.url));
const npx = which('npx');

/** Whether npx can run Node 22 and the suite from its cache (no download). */
function suiteCached(): string | undefined {
  if (npx === undefined) return undefined;
  try {
    const version = execFileSync(npx, ['--offline', '-y', NODE, npx, '--offline', '-y', SUITE, '--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 120_000,
    });
    return version.trim() === '' ? undefined : npx;
  } catch {
    return undefined;
  }
}

const found = requireTool(
  `the MCP conformance suite (${SUITE} on ${NODE})`,
  suiteCached(),
  `npx -y ${NODE} "$(command -v npx)" -y ${SUITE} --version  # as .ci/run does`,
);

describe.skipIf(found === undefined)('the official MCP conformance suite against sluice mcp --http', () => {
  let server: McpHttpProcess;
  beforeAll(async () => {
    server = await startMcpHttp(['--no-token', '--allow', 'sh']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('passes every scenario a tools-only server can, the others failing as the baseline says', async () => {
    const run = await execa(
      npx as string,
      [
        '--offline',
        '-y',
        NODE,
        npx as string,
        '--offline',
        '-y',
        SUITE,
        'server',
        '--url',
        server.url,
        '--expected-failures',
        baseline,
      ],
      { reject: false, timeout: 240_000 },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    // Exit 0: every failure is in the baseline and every scenario outside it passed.
    expect(run.exitCode, output.slice(-4000)).toBe(0);
    for (const scenario of [
      'server-initialize',
      'ping',
      'tools-list',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
    ]) {
      expect(output).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    }
  });
});
