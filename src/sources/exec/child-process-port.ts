import type { ProcessPort } from './process-port.js';
import { spawnChild } from './spawn-child.js';

/**
 * The real {@link ProcessPort}, on Node's own `child_process` (see {@link spawnChild}): every
 * child leads its own process group, and every kill goes to the whole group. It is `exec`'s
 * default; give it explicitly to wrap it (record, delay, refuse what it spawns).
 */
export const childProcessPort: ProcessPort = { spawn: spawnChild };
