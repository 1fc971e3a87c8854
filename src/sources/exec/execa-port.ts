import { lazyPort } from './lazy-port.js';
import type { ProcessPort } from './process-port.js';
import { spawnWithExeca } from './spawn-with-execa.js';

/**
 * The real {@link ProcessPort}, on execa 9 (see {@link spawnWithExeca}): every child leads its
 * own process group, and every kill goes to the whole group.
 *
 * execa is imported on the first spawn, not when sluice is imported (it costs ~80–100 ms). The
 * first run therefore spawns once that import is done (a few ms after subscribe); what `exec`
 * asks meanwhile — pause, kill, stdin — is queued and applied as soon as the child exists, and a
 * run cancelled before that never spawns. Later runs spawn synchronously.
 *
 * @example
 * ```ts
 * import { exec, execaPort } from 'sluice';
 * exec('ls', ['-l'], { port: execaPort }).subscribe(console.log);
 * ```
 */
export const execaPort: ProcessPort = lazyPort(async () => {
  const { execa } = await import('execa');
  return { spawn: (request, events) => spawnWithExeca(execa, request, events) };
});
