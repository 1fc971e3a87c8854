import { Writable } from 'node:stream';
import { lastValueFrom } from 'rxjs';
import { exec } from '../src/index.js';

/**
 * Runs one tiny command through sluice before a sluice variant is measured, so that a variant's
 * figures hold no one-time cost of its first run (the code of the first spawn, compiled once), as
 * a baseline's hold none of its module loading. Start-up itself is the bench's `start` section.
 *
 * @example
 * ```ts
 * await warmUpSluice(); // then start the clock
 * ```
 */
export async function warmUpSluice(): Promise<void> {
  await lastValueFrom(exec('true', [], { reject: false }));
}

/**
 * Loads the kernel (`sluice/kernel`) and runs one tiny streaming hostcall through a host and an
 * extension's bridge before a kernel variant is measured, as {@link warmUpSluice} does for `exec`:
 * the module loading (hundreds of milliseconds under tsx) is not the kernel's throughput.
 *
 * @example
 * ```ts
 * await warmUpKernel(); // then start the clock
 * ```
 */
export async function warmUpKernel(): Promise<void> {
  const { connectExtension, createHost } = await import('../src/kernel/index.js');
  const host = createHost({ logger: { warn() {} } });
  const { api } = connectExtension(host, 'warm-up');
  for await (const _chunk of api.exec('true', [], { stream: true })) {
    // nothing: `true` prints nothing
  }
}

/**
 * Loads the CLI's `--json` path (its argument parser, `execAsJson`, the frame encoder and the
 * NDJSON writer) and runs `sluice exec --json -- true` into a stream that drops what it is given,
 * before a CLI variant is measured, as {@link warmUpKernel} does for the kernel: the module loading
 * (a third of the variant's first run under tsx, measured: docs/benchmarks.md) is not throughput.
 *
 * @example
 * ```ts
 * await warmUpCli(); // then start the clock
 * ```
 */
export async function warmUpCli(): Promise<void> {
  const { parseExecArgs } = await import('../src/cli/parse-args.js');
  const { execAsJson } = await import('../src/cli/exec-json.js');
  const run = parseExecArgs(['--json', '--', 'true']);
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  await execAsJson(run, { stdout: sink, stderr: sink });
}
