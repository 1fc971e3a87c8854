import { lastValueFrom, toArray } from 'rxjs';
import { exec } from '../../src/sources/exec.js';
import { requireTool, which } from './system-tools.js';

/** Debian's `asciinema` (the player of asciicast files), or `undefined` with a notice. */
export const asciinemaPath = requireTool('asciinema', which('asciinema'), 'apt-get install asciinema');

/**
 * What `asciinema cat FILE` prints, with `\r\n` read as `\n`: the text of the recording, or its
 * complaint when the file is not a recording it can read. `asciinema cat` reads its keys from
 * /dev/tty, so it runs on a terminal of its own (a sluice terminal run; needs `script`).
 *
 * @example
 * ```ts
 * expect(await asciinemaCat('run.cast')).toBe('hello\nworld\n');
 * ```
 */
export async function asciinemaCat(file: string): Promise<string> {
  if (asciinemaPath === undefined) throw new Error('asciinema is not installed');
  const events = await lastValueFrom(
    exec(asciinemaPath, ['cat', file], { tty: true, timeoutMs: 10_000 }).pipe(toArray()),
  );
  return events
    .flatMap((event) => (event.kind === 'stdout' ? [event.content as string] : []))
    .join('')
    .replaceAll('\r\n', '\n');
}
