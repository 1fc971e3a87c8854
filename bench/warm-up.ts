import { lastValueFrom } from 'rxjs';
import { exec } from '../src/index.js';

/**
 * Runs one tiny command through sluice before a sluice variant is measured. sluice loads execa on
 * its first spawn and zod on its first option check (so that `import 'sluice'` stays cheap); a
 * benchmark that counts no module loading for its baselines must not count those one-time loads
 * either.
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
