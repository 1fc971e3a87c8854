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
