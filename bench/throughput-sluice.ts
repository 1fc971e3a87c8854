import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { coalesce, type ExecEvent, exec, onChunk, toAsyncIterable } from '../src/index.js';
import type { ExtensionApi } from '../src/kernel/index.js';
import { countProgressLines } from './count-progress-lines.js';
import type { ThroughputVariant } from './throughput-raw.js';

const isLine = (event: ExecEvent) => event.kind === 'stdout';
const quiet = { warn() {} };

/** The kernel variant's extension, once its first run has connected it. */
let kernelApi: ExtensionApi | undefined;

/** Makes a host and connects an extension named `bench` to it. */
async function connectBenchExtension(): Promise<ExtensionApi> {
  // Imported here so that the exec variants never depend on the kernel (sluice/kernel).
  const { connectExtension, createHost } = await import('../src/kernel/index.js');
  return connectExtension(createHost({ logger: quiet }), 'bench').api;
}

/**
 * sluice's ways of reading a producer's stdout to the end, one `exec` subscription each.
 *
 * @example
 * ```ts
 * const lines = await sluiceThroughput['exec-push']('cat', ['/tmp/lines.txt']);
 * ```
 */
export const sluiceThroughput: Record<string, ThroughputVariant> = {
  /** Plain `subscribe()`: push, one event per line. */
  'exec-push': (command, args) =>
    new Promise((resolve, reject) => {
      let lines = 0;
      exec(command, args).subscribe({
        next: (event) => {
          if (isLine(event)) lines += 1;
        },
        error: reject,
        complete: () => resolve(lines),
      });
    }),
  /** The same on a terminal (`tty: true`): `script` copies what the terminal shows into the pipe; lines end in `\r\n`. */
  'exec-tty': (command, args) =>
    new Promise((resolve, reject) => {
      let lines = 0;
      exec(command, args, { tty: true }).subscribe({
        next: (event) => {
          if (isLine(event)) lines += 1;
        },
        error: reject,
        complete: () => resolve(lines),
      });
    }),
  /** `for await` over `toAsyncIterable` (bufferSize 16: bounded). */
  'exec-iterable': async (command, args) => {
    let lines = 0;
    for await (const event of toAsyncIterable(exec(command, args))) if (isLine(event)) lines += 1;
    return lines;
  },
  /** `onChunk` with an async callback (bufferSize 16: bounded). */
  'exec-onchunk': async (command, args) => {
    let lines = 0;
    await onChunk(exec(command, args), async (event) => {
      if (isLine(event)) lines += 1;
    });
    return lines;
  },
  /** `coalesce()` (16 ms windows) then a plain subscribe, as a UI would. */
  'exec-coalesce': (command, args) =>
    new Promise((resolve, reject) => {
      let lines = 0;
      exec(command, args)
        .pipe(coalesce())
        .subscribe({
          next: (batch) => {
            for (const event of batch) if (isLine(event)) lines += 1;
          },
          error: reject,
          complete: () => resolve(lines),
        });
    }),
  /**
   * `sluice exec --json -- <command>` (the CLI's `execAsJson`, in this process) writing its NDJSON
   * frames into a real pipe read by `wc -l`, as `sluice exec --json -- cat … | wc -l` does. Counts
   * the frames of stdout lines: every frame but the final one.
   */
  'cli-json': async (command, args) => {
    const { parseExecArgs } = await import('../src/cli/parse-args.js');
    const { execAsJson } = await import('../src/cli/exec-json.js');
    const wc = spawn('wc', ['-l'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let counted = '';
    wc.stdout.setEncoding('utf8').on('data', (text: string) => {
      counted += text;
    });
    const run = parseExecArgs(['--json', '--', command, ...args]);
    const code = await execAsJson(run, { stdout: wc.stdin, stderr: process.stderr });
    wc.stdin.end();
    await once(wc, 'close');
    if (code !== 0) throw new Error(`sluice exec --json exited ${code}`);
    return Number(counted.trim()) - 1;
  },
  /**
   * A streaming `exec` hostcall through the kernel's host and an extension's bridge, `for await`.
   * The first run makes the host and connects the extension; a second run in the same process is
   * a second stream of them, as a long-lived host serves many (docs/benchmarks.md, "Method").
   */
  'kernel-stream': async (command, args) => {
    kernelApi ??= await connectBenchExtension();
    const api = kernelApi;
    let lines = 0;
    for await (const chunk of api.exec(command, [...args], { stream: true, bufferSize: 16 })) {
      if (typeof chunk === 'string') lines += 1;
    }
    return lines;
  },
  /**
   * The Exec tool served by `serveMcp` to the SDK's own Client over its in-memory transport: every
   * line crosses as part of a coalesced `notifications/progress` (JSON-RPC, zod-checked by the
   * client); lines are counted in the notifications' messages.
   */
  'mcp-progress': async (command, args) => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { createToolRegistry, registerBuiltinTools } = await import('../src/kernel/index.js');
    const { serveMcp } = await import('../src/mcp/index.js');
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await serveMcp(registerBuiltinTools(createToolRegistry()), serverTransport, {
      allow: [command],
      timeoutS: 600,
    });
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(clientTransport);
    const lines = await countProgressLines(client, command, args);
    await client.close();
    return lines;
  },
  /** The hot path without `@opentelemetry/api` (test/support/hide-otel.mjs), beside the two above. */
  'exec-push-no-otel': (command, args) =>
    sluiceThroughput['exec-push']?.(command, args) ?? Promise.resolve(0),
  'exec-iterable-no-otel': (command, args) =>
    sluiceThroughput['exec-iterable']?.(command, args) ?? Promise.resolve(0),
};
