import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** Every benchmark line is this many bytes, `\n` included: `0000000042 xxx…x\n`. */
export const LINE_BYTES = 60;

const PAD = 'x'.repeat(LINE_BYTES - 12);

/**
 * Writes `count` numbered {@link LINE_BYTES}-byte lines to `path` (the input of the `cat` producer).
 *
 * @example
 * ```ts
 * await writeLinesFile('/tmp/lines.txt', 2_000_000); // 120 MB
 * ```
 */
export async function writeLinesFile(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const BATCH = 8192;
  for (let start = 0; start < count; start += BATCH) {
    let block = '';
    const end = Math.min(count, start + BATCH);
    for (let n = start; n < end; n++) block += `${String(n).padStart(10, '0')} ${PAD}\n`;
    if (!out.write(block)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
