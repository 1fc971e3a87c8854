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
