import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ErrorCode,
  type JSONRPCMessage,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolRegistry, execToolResultSchema, registerBuiltinTools } from '../../src/kernel/index.js';
import { serveMcp } from '../../src/mcp/index.js';
import { readExecOptions } from '../../src/sources/exec/exec-options.js';
import { groupAlive, groupGone, pollUntil } from '../support/processes.js';
import { needs } from '../support/system-tools.js';
import { connectInMemory, GROUP_OF_SLEEPS, WAIT_FOR_FILE } from './connect-in-memory.js';

const builtins = () => registerBuiltinTools(createToolRegistry());
const closers: (() => Promise<void>)[] = [];
async function connect(...args: Parameters<typeof connectInMemory>) {
  const connection = await connectInMemory(...args);
  closers.push(connection.close);
  return connection;
}
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const textOf = (result: unknown) =>
  ((result as CallToolResult).content ?? [])
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
const tag = () => `sluice-mcp-${process.pid}-${Math.random().toString(36).slice(2)}`;
const taggedAlive = (text: string) => {
  const out = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return out.split('\n').some((line) => line.includes(text) && !line.trim().startsWith('Z'));
};

describe('serveMcp: listing', () => {
  it('offers no Exec tool without an allow list, and says how to turn it on when called', async () => {
    const { client } = await connect(builtins());
    expect((await client.listTools()).tools).toEqual([]);
    const call = client.callTool({ name: 'Exec', arguments: { argv: ['ls'] } });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringMatching(
        /^MCP error -32602: Tool `Exec` is off: this server allows no program \(start it with `--allow <program>`/,
      ),
    });
    // The SDK's client prefixes the code once: the server's message does not carry it again.
    await expect(client.callTool({ name: 'Nope', arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool `Nope` \(tools: none\)$/,
    );
  });

  it('lists Exec with the allowed programs as an enum, its limits, and the JSON Schema of its result', async () => {
    const { client } = await connect(builtins(), { allow: ['sh', 'python3'], timeoutS: 30 });
    const [exec] = (await client.listTools()).tools;
    expect(exec?.name).toBe('Exec');
    expect(exec?.description).toContain('Allowed programs: sh, python3.');
    const properties = exec?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.argv).toMatchObject({
      type: 'array',
      items: [{ type: 'string', enum: ['sh', 'python3'] }],
      additionalItems: { type: 'string' },
      minItems: 1,
    });
    expect(properties.timeout_s).toMatchObject({ default: 30, maximum: 30, exclusiveMinimum: 0 });
    expect(properties).not.toHaveProperty('stream'); // progress follows the call's progress token
    expect(exec?.inputSchema.required).toEqual(['argv']);
    // The JSON Schema zod makes of the result, a nullable field as `anyOf` (portable) rather than a `type` array.
    const zodMade = z.toJSONSchema(execToolResultSchema, { target: 'draft-7', io: 'output' });
    expect(zodMade.properties?.signal).toMatchObject({ type: ['string', 'null'] });
    expect(exec?.outputSchema).toEqual({
      ...zodMade,
      properties: {
        ...zodMade.properties,
        signal: {
          description: 'The signal that ended the program (SIGTERM, SIGKILL, …), or null',
          anyOf: [{ type: 'string' }, { type: 'null' }],
        },
      },
    });
  });

  it('lists a zod-defined user tool with the JSON Schema zod makes of it, and runs it', async () => {
    const registry = createToolRegistry().register({
      name: 'Greet',
      description: 'Greets someone, a few times',
      schema: z.strictObject({
        name: z.string({ error: 'be a string' }).min(1).describe('Who to greet'),
        times: z.number({ error: 'must be a number' }).int().min(1).max(5).default(1),
        style: z.enum(['plain', 'loud']).optional(),
      }),
      outputSchema: z.object({ greetings: z.array(z.string()) }),
      handler: (args: { name: string; times: number; style?: 'plain' | 'loud' }, ctx) => {
        const greetings: string[] = [];
        for (let index = 0; index < args.times; index += 1) {
          const greeting = args.style === 'loud' ? `HELLO ${args.name.toUpperCase()}!` : `hello ${args.name}`;
          ctx.onChunk?.({ op: 'chunk', kind: 'stdout', content: `${greeting}\n` });
          greetings.push(greeting);
        }
        return { greetings };
      },
    });
    const { client } = await connect(registry);
    const [greet] = (await client.listTools()).tools;
    expect(greet).toEqual({
      name: 'Greet',
      description: 'Greets someone, a few times',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, description: 'Who to greet' },
          times: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
          style: { type: 'string', enum: ['plain', 'loud'] },
        },
        required: ['name'],
        additionalProperties: false,
      },
      outputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { greetings: { type: 'array', items: { type: 'string' } } },
        required: ['greetings'],
        additionalProperties: false,
      },
      // Any tool may be run as an MCP task (docs/mcp.md, "Long calls: MCP Tasks").
      execution: { taskSupport: 'optional' },
    });
    const progress: unknown[] = [];
    const result = await client.callTool({ name: 'Greet', arguments: { name: 'Ada', times: 2 } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"greetings":["hello Ada","hello Ada"]}' }],
      structuredContent: { greetings: ['hello Ada', 'hello Ada'] },
    });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((update) => (update as { message: string }).message).join('')).toBe(
      'hello Ada\nhello Ada\n',
    );
    const bad = await client.callTool({ name: 'Greet', arguments: { name: 'Ada', times: 'twice' } });
    expect(bad).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments of `Greet`: `times` must be a number, got "twice" (string) (INVALID_ARGUMENTS)',
        },
      ],
      isError: true,
    });
  });

  it('refuses a tool whose schema is not an object, naming the tool', async () => {
    const registry = createToolRegistry().register({
      name: 'Str',
      schema: z.string(),
      handler: (text) => text,
    });
    const [, serverTransport] = InMemoryTransport.createLinkedPair();
    await expect(serveMcp(registry, serverTransport)).rejects.toThrow(
      'Expected the `schema` of tool `Str` to be a zod object schema (MCP tools take and give objects), got JSON Schema type `string`',
    );
  });

  it('checks its options in the one template before connecting', async () => {
    const [, serverTransport] = InMemoryTransport.createLinkedPair();
    const registry = builtins();
    await expect(serveMcp(registry, serverTransport, { allow: 'npm' as never })).rejects.toThrow(
      'Expected the `allow` option to be an array of program names or paths (non-empty strings), got `npm` (string)',
    );
    await expect(serveMcp(registry, serverTransport, { timeoutS: 601 })).rejects.toThrow(
      'Expected the `timeoutS` option to be a number of seconds in (0, 600], got `601` (number)',
    );
    await expect(serveMcp(registry, serverTransport, { progressIntervalMs: -1 })).rejects.toThrow(
      'Expected the `progressIntervalMs` option to be a non-negative integer, got `-1` (number)',
    );
    await expect(serveMcp(registry, serverTransport, { progressIntervalMs: 2 ** 31 })).rejects.toThrow(
      'Expected the `progressIntervalMs` option to be a non-negative integer up to 2147483647, got `2147483648` (number)',
    );
    await expect(serveMcp(registry, serverTransport, { allowed: ['npm'] } as never)).rejects.toThrow(
      'Unknown `allowed` option',
    );
    await expect(serveMcp({} as never, serverTransport)).rejects.toThrow(
      'Expected the `registry` argument to be a ToolRegistry (createToolRegistry), got `{}` (object)',
    );
  });
});

describe('serveMcp: the Exec tool', () => {
  it.skipIf(!needs('python3'))(
    'sends lines as progress while the command runs, stderr marked, all before the result',
    async () => {
      const { client } = await connect(builtins(), { allow: ['python3'] });
      const gate = join(mkdtempSync(join(tmpdir(), 'sluice-mcp-')), 'go');
      const events: string[] = [];
      const result = await client.callTool(
        { name: 'Exec', arguments: { argv: ['python3', '-c', WAIT_FOR_FILE, gate] } },
        undefined,
        {
          onprogress: (update) => {
            events.push(`progress ${update.progress}: ${update.message}`);
            // The command waits for this file: the first line arrived while it was still running.
            if (update.message?.includes('first')) writeFileSync(gate, '');
          },
        },
      );
      events.push('result');
      expect(events.at(-1)).toBe('result');
      expect(events.slice(0, -1).join('')).toMatch(/^progress \d: first\n/);
      const messages = events.slice(0, -1).map((event) => event.replace(/^progress \d: /, ''));
      expect(messages.join('').split('\n').sort()).toEqual(
        ['', '[stderr] warming up', 'first', 'second'].sort(),
      );
      expect(events.at(-2)).toMatch(/^progress 3: /);
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({
        exit_code: 0,
        stdout: 'first\nsecond\n',
        stderr: 'warming up\n',
      });
      expect(textOf(result)).toMatch(
        /^first\nsecond\n\[stderr\]\nwarming up\nexit 0 · \d+ ms · 3 lines sent as progress notifications\n$/,
      );
    },
  );

  it('without a progress token runs buffered: the same result, no notifications', async () => {
    const { client } = await connect(builtins(), { allow: ['sh'] });
    const result = await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'echo hi; echo ho >&2'] },
    });
    expect(result.structuredContent).toMatchObject({ exit_code: 0, stdout: 'hi\n', stderr: 'ho\n' });
    expect(textOf(result)).toMatch(/^hi\n\[stderr\]\nho\nexit 0 · \d+ ms\n$/);
  });

  it('refuses a program outside the allow list with an error result naming what is allowed', async () => {
    const { client } = await connect(builtins(), { allow: ['sh', 'git'] });
    const refused = await client.callTool({ name: 'Exec', arguments: { argv: ['rm', '-rf', '/tmp/x'] } });
    expect(refused).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments of `Exec`: `argv[0]` must be one of the allowed programs: sh, git, got "rm" (string) (INVALID_ARGUMENTS)',
        },
      ],
      isError: true,
    });
    // Exact names: a path to an allowed program is another program.
    const path = await client.callTool({ name: 'Exec', arguments: { argv: ['/bin/sh', '-c', 'true'] } });
    expect(textOf(path)).toContain('one of the allowed programs: sh, git, got "/bin/sh"');
    const loader = await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'true'], env: { LD_PRELOAD: '/tmp/evil.so' } },
    });
    expect(textOf(loader)).toMatch(
      /^Invalid arguments of `Exec`: `env` must be an object of strings without LD_\*, DYLD_\* or NODE_OPTIONS/,
    );
    const slow = await client.callTool({ name: 'Exec', arguments: { argv: ['sh'], timeout_s: 61 } });
    expect(textOf(slow)).toBe(
      'Invalid arguments of `Exec`: `timeout_s` must be a number of seconds in (0, 60], got 61 (number) (INVALID_ARGUMENTS)',
    );
  });

  it("runs the allowed program found on the server's PATH, whatever the call's env.PATH", async () => {
    const evil = mkdtempSync(join(tmpdir(), 'sluice-mcp-path-'));
    writeFileSync(join(evil, 'sh'), '#!/bin/sh\necho evil\n');
    chmodSync(join(evil, 'sh'), 0o755);
    const { client } = await connect(builtins(), { allow: ['sh'] });
    const result = await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'echo "$PATH"'], env: { PATH: evil } },
    });
    expect(result.structuredContent).toMatchObject({ exit_code: 0, stdout: `${evil}\n` });
  });

  it("resolves a call's relative cwd, and an allowed relative path, against the server's cwd", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'sluice-mcp-cwd-')));
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'where.sh'), '#!/bin/sh\npwd\n');
    chmodSync(join(root, 'where.sh'), 0o755);
    const { client } = await connect(builtins(), { allow: ['./where.sh'], cwd: root });
    const here = await client.callTool({ name: 'Exec', arguments: { argv: ['./where.sh'] } });
    expect(here.structuredContent).toMatchObject({ stdout: `${root}\n` });
    const sub = await client.callTool({ name: 'Exec', arguments: { argv: ['./where.sh'], cwd: 'sub' } });
    expect(sub.structuredContent).toMatchObject({ exit_code: 0, stdout: `${join(root, 'sub')}\n` });
  });

  it('is an error result for a non-zero exit, a timeout and a kill; structuredContent still says what happened', async () => {
    const { client } = await connect(builtins(), { allow: ['sh'] });
    const exit = await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'echo no >&2; exit 3'] },
    });
    expect(exit).toMatchObject({ isError: true, structuredContent: { exit_code: 3, stderr: 'no\n' } });
    expect(textOf(exit)).toMatch(/exit 3 · \d+ ms\n$/);
    const slow = await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'sleep 30'], timeout_s: 0.3 },
    });
    expect(slow).toMatchObject({ isError: true, structuredContent: { timed_out: true } });
    expect(textOf(slow)).toMatch(/^timed out · \d+ ms\n$/);
    const killed = await client.callTool({
      name: 'Exec',
      arguments: { argv: ['sh', '-c', 'kill -KILL $$'] },
    });
    expect(killed).toMatchObject({
      isError: true,
      structuredContent: { exit_code: null, signal: 'SIGKILL' },
    });
    expect(textOf(killed)).toMatch(/^killed by SIGKILL · \d+ ms\n$/);
  });

  it('states the output cap in the result when the output was cut; every line still went out as progress', async () => {
    const { client } = await connect(builtins(), { allow: ['sh'] });
    let streamed = '';
    const result = await client.callTool(
      { name: 'Exec', arguments: { argv: ['sh', '-c', 'seq 1 5000'], max_output_bytes: 1024 } },
      undefined,
      {
        onprogress: (update) => {
          streamed += update.message;
        },
      },
    );
    expect(streamed).toBe(`${Array.from({ length: 5000 }, (_, index) => index + 1).join('\n')}\n`);
    expect(result.structuredContent).toMatchObject({ truncated: true, exit_code: 0 });
    expect((result.structuredContent as { stdout: string }).stdout.length).toBeLessThanOrEqual(1024);
    expect(textOf(result)).toMatch(
      / · output truncated: stdout and stderr are each capped at 1024 bytes \(max_output_bytes\) · 5000 lines sent as progress notifications\n$/,
    );
  });

  it.skipIf(!needs('linux', 'ps'))(
    'kills the whole process group promptly when the call is aborted (AbortSignal)',
    async () => {
      const { client } = await connect(builtins(), { allow: ['sh'] });
      const name = tag();
      const controller = new AbortController();
      let pgid = 0;
      const call = client.callTool(
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
      expect(await pollUntil(() => pgid > 0 && taggedAlive(name), 20_000)).toBe(true);
      expect(
        await pollUntil(
          () =>
            execFileSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' })
              .trim()
              .split('\n').length >= 3,
          20_000,
        ),
      ).toBe(true);
      const start = performance.now();
      controller.abort('the user pressed stop');
      while (groupAlive(pgid) && performance.now() - start < 5_000)
        await new Promise((resolve) => setTimeout(resolve, 2));
      const elapsed = performance.now() - start;
      await expect(call).rejects.toThrow('the user pressed stop');
      expect(groupAlive(pgid)).toBe(false);
      expect(taggedAlive(name)).toBe(false);
      // The group went with killSignal, not with the SIGKILL that a kill which missed a member would
      // wait for (forceKillAfterMs later): a bound from the kill sequence, not from this machine's
      // speed. How fast is the `cancel-mcp` benchmark's business (docs/benchmarks.md).
      const { forceKillAfterMs } = readExecOptions('sh', [], {});
      expect(elapsed, `group gone ${elapsed.toFixed(1)} ms after abort`).toBeLessThan(forceKillAfterMs);
    },
  );

  it.skipIf(!needs('linux', 'ps'))('kills the running command when the connection closes', async () => {
    const { client } = await connect(builtins(), { allow: ['sh'] });
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
    await client.close();
    expect(await groupGone(pgid, 5_000)).toBe(true);
    expect(taggedAlive(name)).toBe(false);
    await expect(call).rejects.toThrow('Connection closed');
  });

  it("delivers the last line to the SDK's Client even when the transport hands it over in one read with the result", async () => {
    // A transport that delivers what the server sends in bursts, as a busy pipe does: everything
    // written within 5 ms reaches the client in one synchronous batch (one "read").
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    const queue: JSONRPCMessage[] = [];
    let scheduled = false;
    const bursty: Transport = {
      start: () => serverTransport.start(),
      close: () => serverTransport.close(),
      send: async (message) => {
        queue.push(message);
        if (scheduled) return;
        scheduled = true;
        setTimeout(() => {
          scheduled = false;
          for (const queued of queue.splice(0)) void serverTransport.send(queued);
        }, 5);
      },
    };
    serverTransport.onmessage = (message, extra) => bursty.onmessage?.(message, extra);
    serverTransport.onclose = () => bursty.onclose?.();
    await serveMcp(builtins(), bursty, { allow: ['sh'] });
    const client = new Client({ name: 'sluice-test', version: '1.0.0' });
    await client.connect(clientTransport);
    closers.push(() => client.close());
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    for (let run = 0; run < 5; run += 1) {
      let streamed = '';
      await client.callTool(
        { name: 'Exec', arguments: { argv: ['sh', '-c', 'echo one; sleep 0.05; echo last'] } },
        undefined,
        {
          onprogress: (update) => {
            streamed += update.message;
          },
        },
      );
      expect(streamed).toBe('one\nlast\n');
    }
    expect(errors).toEqual([]); // no "progress notification for an unknown token"
  });
});
