import { constants } from 'node:os';
import type { RlimitName } from './exec-result.js';
import type { ExecRlimits } from './exec-rlimits.js';
import type { ExitInfo } from './process-port.js';

/**
 * Tells which resource limit a child ran into, from how it ended:
 *
 * - `SIGXCPU` → `cpu`; `SIGKILL` that sluice did not send, with a CPU limit → `cpu` (the hard limit);
 * - `SIGXFSZ` → `fileSize`;
 * - the same signals seen by a shell leader, which exits with 128 + the signal number;
 * - heuristically, from a failing exit and the captured stderr (Python, for one, ignores `SIGXFSZ`
 *   and reports errors instead): "File too large" → `fileSize`, "Too many open files" → `openFiles`,
 *   "MemoryError"/"Cannot allocate memory"/"out of memory" (or `SIGSEGV`/`SIGABRT`) → `addressSpace`.
 *
 * Only limits that were actually set are ever reported.
 *
 * @example
 * ```ts
 * rlimitHit({ cpuSeconds: 1 }, { exitCode: null, signal: 'SIGXCPU' }, '', false); // 'cpu'
 * ```
 */
export function rlimitHit(
  rlimits: ExecRlimits | undefined,
  exit: ExitInfo,
  stderr: string,
  killedBySluice: boolean,
): RlimitName | null {
  if (rlimits === undefined) return null;
  const { signal, exitCode } = exit;
  const failed = exitCode !== null && exitCode !== 0;
  // A shell reports a child's death by signal n as exit code 128 + n.
  const shellSaw = (name: 'SIGXCPU' | 'SIGXFSZ' | 'SIGKILL') => exitCode === 128 + constants.signals[name];
  if (rlimits.cpuSeconds !== undefined) {
    if (signal === 'SIGXCPU' || shellSaw('SIGXCPU')) return 'cpu';
    if ((signal === 'SIGKILL' && !killedBySluice) || shellSaw('SIGKILL')) return 'cpu';
  }
  if (rlimits.fileSizeBytes !== undefined) {
    if (signal === 'SIGXFSZ' || shellSaw('SIGXFSZ') || (failed && /File too large|EFBIG/.test(stderr))) {
      return 'fileSize';
    }
  }
  if (rlimits.openFiles !== undefined && failed && /Too many open files|EMFILE/.test(stderr)) {
    return 'openFiles';
  }
  if (rlimits.addressSpaceBytes !== undefined) {
    if (signal === 'SIGSEGV' || signal === 'SIGABRT') return 'addressSpace';
    if (failed && /MemoryError|Cannot allocate memory|ENOMEM|out of memory/i.test(stderr)) {
      return 'addressSpace';
    }
  }
  return null;
}
