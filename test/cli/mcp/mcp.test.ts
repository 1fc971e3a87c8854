import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExecOptions } from '../../../src/sources/exec/exec-options.js';
import { GROUP_OF_SLEEPS, WAIT_FOR_FILE } from '../../mcp/connect-in-memory.js';
import { groupAlive, groupGone, pollUntil, processGone } from '../../support/processes.js';
import { CLI } from '../../support/sluice-cli.js';
import { needs } from '../../support/system-tools.js';

/** `sluice mcp …` as an MCP host runs it: a separate process on stdio, driven by the SDK's own Client. */
async function startSluiceMcp(args: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (data: Buffer) => {
    log += data.toString();
  });
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, log: () => log };
}

const textOf = (result: unknown) =>
  ((result as CallToolResult).content ?? [])
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
const tag = () => `sluice-mcp-stdio-${process.pid}-${Math.random().toString(36).slice(2)}`;
const taggedAlive = (text: string) =>
  execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .some((line) => line.includes(text) && !line.trim().startsWith('Z'));

/**
 * `lines` lines, numbered from 0, at up to 100 000 a second (slower on a loaded machine: the count
 * is fixed, the time is not); python blocks on a full pipe.
 */
const FLOOD = `import sys, time
lines = int(sys.argv[1])
write = sys.stdout.write
n = 0
start = time.monotonic()
while n < lines:
    target = min(lines, int((time.monotonic() - start) * 100000))
    while n < target:
        write(f"{n}\\n")
        n += 1
    time.sleep(0.001)
sys.stdout.flush()
`;

/** How many lines {@link FLOOD} writes in the flood test: a second and a half of them, unloaded. */
const FLOOD_LINES = 150_000;

describe('sluice mcp over stdio (the SDK Client against the real process)', () => {
  let server: Awaited<ReturnType<typeof startSluiceMcp>>;
  beforeAll(async () => {
    server = await startSluiceMcp(['--allow', 'python3', '--allow', 'sh', '--timeout-s', '120']);
  });
  afterAll(async () => {
    await server?.client.close();
  });

  it('logs what it serves on stderr and lists Exec for the allowed programs', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['Exec']);
    expect(tools[0]?.inputSchema.properties?.argv).toMatchObject({ items: [{ enum: ['python3', 'sh'] }] });
    expect(server.log()).toMatch(
      /^sluice mcp: serving Exec over stdio for python3, sh \(cwd .+, timeout 120 s\)\n/,
    );
  });

  it.skipIf(!needs('python3'))(
    'sends lines as progress notifications while the command runs, the first well before the result',
    async () => {
      const gate = join(mkdtempSync(join(tmpdir(), 'sluice-mcp-stdio-')), 'go');
      const events: string[] = [];
      const result = await server.client.callTool(
        { name: 'Exec', arguments: { argv: ['python3', '-c', WAIT_FOR_FILE, gate] } },
        undefined,
        {
          onprogress: (update) => {
            events.push(update.message ?? '');
            // The command is blocked until this file exists: progress arrived while it ran.
            if (update.message?.includes('first')) writeFileSync(gate, '');
          },
        },
      );
      expect(events[0]).toMatch(/^first\n/);
      expect(events.join('')).toContain('[stderr] warming up\n');
      expect(events.join('')).toContain('second\n');
      expect(result.structuredContent).toMatchObject({ exit_code: 0, stdout: 'first\nsecond\n' });
    },
  );

  it.skipIf(!needs('linux', 'script'))(
    'with tty: true, hands the agent the finished lines of a terminal program, not its redraws',
    async () => {
      const progress =
        'i=1; while [ $i -le 100 ]; do printf "\\r\\033[1m%3d%%\\033[0m" $i; i=$((i+1)); done; echo; echo done';
      const messages: string[] = [];
      const result = await server.client.callTool(
        { name: 'Exec', arguments: { argv: ['sh', '-c', progress], tty: true } },
        undefined,
        { onprogress: (update) => void messages.push(update.message ?? '') },
      );
      expect(result.structuredContent).toMatchObject({
        exit_code: 0,
        stdout: '100%\ndone\n',
        truncated: false,
      });
      expect(messages.join('')).toBe('100%\ndone\n');
      expect(textOf(result)).toMatch(/^100%\ndone\nexit 0 · /);
      const refused = await server.client.callTool({ name: 'Exec', arguments: { argv: ['sh'], tty: 1 } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(
        'Invalid arguments of `Exec`: `tty` must be a boolean, got 1 (number) (INVALID_ARGUMENTS)',
      );
    },
  );

  it('refuses a program that was not allowed, saying what is', async () => {
    const result = await server.client.callTool({ name: 'Exec', arguments: { argv: ['git', 'status'] } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invalid arguments of `Exec`: `argv[0]` must be one of the allowed programs: python3, sh, got "git" (string) (INVALID_ARGUMENTS)',
    );
  });

  it.skipIf(!needs('linux', 'ps'))(
    'kills the whole process group promptly when the call is aborted; no tagged process is left',
    async () => {
      const name = tag();
      const controller = new AbortController();
      let pgid = 0;
      const call = server.client.callTool(
        { name: 'Exec', arguments: { argv: ['sh', '-c', GROUP_OF_SLEEPS, name] } },
        undefined,
        {
          signal: controller.signal,
          onprogress: (update) => {
            pgid ||= Number.parseInt(update.message ?? '', 10);
          },
        },
      );
      call.catch(() => {});
      // The shell and both subshells run (each carries the tag in its command line).
      expect(await pollUntil(() => pgid > 0 && taggedAlive(name), 20_000)).toBe(true);
      expect(
        await pollUntil(
          () => execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split(name).length > 3,
          20_000,
        ),
      ).toBe(true);
      const start = performance.now();
      controller.abort('stop');
      while (groupAlive(pgid) && performance.now() - start < 5_000)
        await new Promise((resolve) => setTimeout(resolve, 2));
      const elapsed = performance.now() - start;
      expect(groupAlive(pgid)).toBe(false);
      expect(taggedAlive(name)).toBe(false);
      // The group went with killSignal, not with the SIGKILL that a kill which missed a member would
      // wait for (forceKillAfterMs later): a bound from the kill sequence, not from this machine's
      // speed. How fast is the `cancel-mcp` benchmark's business (docs/benchmarks.md).
      const { forceKillAfterMs } = readExecOptions('sh', [], {});
      expect(elapsed, `the group was gone ${elapsed.toFixed(1)} ms after the abort`).toBeLessThan(
        forceKillAfterMs,
      );
      await expect(call).rejects.toThrow('stop');
      // The server goes on serving.
      const after = await server.client.callTool({
        name: 'Exec',
        arguments: { argv: ['sh', '-c', 'echo still here'] },
      });
      expect(after.structuredContent).toMatchObject({ stdout: 'still here\n' });
    },
  );

  it.skipIf(!needs('python3'))(
    'does not flood the client with a command of 100 000 lines/s: coalesced, every line exactly once, the cap stated',
    async () => {
      const messages: string[] = [];
      const progress: number[] = [];
      const result = await server.client.callTool(
        { name: 'Exec', arguments: { argv: ['python3', '-c', FLOOD, String(FLOOD_LINES)] } },
        undefined,
        {
          timeout: 120_000,
          onprogress: (update) => {
            messages.push(update.message ?? '');
            progress.push(update.progress);
          },
        },
      );
      const lines = messages.join('').split('\n');
      expect(lines.pop()).toBe('');
      const count = lines.length;
      expect(count).toBe(FLOOD_LINES);
      // Every line exactly once, in order.
      expect(lines.every((line, index) => line === String(index))).toBe(true);
      // progress counts lines, strictly increasing, ending at the total.
      expect(progress.every((value, index) => index === 0 || value > (progress[index - 1] ?? 0))).toBe(true);
      expect(progress.at(-1)).toBe(count);
      // Coalesced: at most one notification per 20 ms of the run (plus the first, sent at once).
      const { duration_ms: durationMs, truncated } = result.structuredContent as {
        duration_ms: number;
        truncated: boolean;
      };
      expect(messages.length).toBeLessThanOrEqual(Math.ceil(durationMs / 20) + 2);
      expect(messages.length).toBeLessThan(count / 100);
      // The result stays within the output cap and says so.
      expect(truncated).toBe(true);
      expect((result.structuredContent as { stdout: string }).stdout.length).toBeLessThanOrEqual(262_144);
      expect(textOf(result)).toMatch(
        new RegExp(
          `exit 0 · \\d+ ms · output truncated: stdout and stderr are each capped at 262144 bytes \\(max_output_bytes\\) · ${count} lines sent as progress notifications\\n$`,
        ),
      );
    },
  );
});

describe('sluice mcp: lifetime and command line', () => {
  it.skipIf(!needs('linux', 'ps'))(
    'kills a running command and exits when the client goes away',
    async () => {
      const { client, transport } = await startSluiceMcp(['--allow', 'sh']);
      const serverPid = transport.pid ?? 0;
      const name = tag();
      let pgid = 0;
      const call = client.callTool(
        { name: 'Exec', arguments: { argv: ['sh', '-c', GROUP_OF_SLEEPS, name] } },
        undefined,
        {
          onprogress: (update) => {
            pgid ||= Number.parseInt(update.message ?? '', 10);
          },
        },
      );
      call.catch(() => {});
      expect(await pollUntil(() => pgid > 0, 20_000)).toBe(true);
      // Closing ends the server's stdin: the command is killed at once, well before the SDK's own
      // 2 s grace (after which it would SIGTERM the server).
      const closing = client.close();
      expect(await groupGone(pgid, 1_000)).toBe(true);
      expect(taggedAlive(name)).toBe(false);
      await closing;
      // The server exits too (after exec's 2 s SIGKILL check for members that ignored SIGTERM).
      expect(await pollUntil(() => processGone(serverPid), 5_000)).toBe(true);
    },
  );

  it.skipIf(!needs('linux', 'ps'))('kills a running command and exits on SIGTERM', async () => {
    const { client, transport } = await startSluiceMcp(['--allow', 'sh']);
    const serverPid = transport.pid ?? 0;
    let pgid = 0;
    const call = client.callTool(
      { name: 'Exec', arguments: { argv: ['sh', '-c', GROUP_OF_SLEEPS, tag()] } },
      undefined,
      {
        onprogress: (update) => {
          pgid ||= Number.parseInt(update.message ?? '', 10);
        },
      },
    );
    call.catch(() => {});
    expect(await pollUntil(() => pgid > 0, 20_000)).toBe(true);
    process.kill(serverPid, 'SIGTERM');
    expect(await groupGone(pgid, 1_000)).toBe(true);
    expect(await pollUntil(() => processGone(serverPid), 5_000)).toBe(true);
    await client.close();
  });

  it('offers no tool without --allow, and says so on stderr', async () => {
    const { client, log } = await startSluiceMcp([]);
    expect((await client.listTools()).tools).toEqual([]);
    expect(log()).toContain(
      'sluice mcp: no program is allowed, so the Exec tool is off (start with --allow <program>)',
    );
    await client.close();
  });

  it('prints its help, and exits 2 on a bad command line', async () => {
    const help = await execa(process.execPath, [CLI, 'mcp', '--help'], { reject: false });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('"args": ["sluice", "mcp", "--allow", "npm", "--allow", "git"]');
    const bad = await execa(process.execPath, [CLI, 'mcp', '--timeout-s', 'soon'], {
      reject: false,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe(
      'sluice: Expected the `--timeout-s` flag to be a number of seconds in (0, 600], got `soon` (string)\nTry `sluice mcp --help`.',
    );
    const unknown = await execa(process.execPath, [CLI, 'mcp', '--allow'], {
      reject: false,
    });
    expect(unknown.exitCode).toBe(2);
  });
});
