import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import { SpawnError } from '../../core/errors/spawn-error.js';
import { cgroupCommand, containInCgroup, openCgroup } from './cgroup-handle.js';
import type { CgroupRun } from './cgroup-run.js';
import { findExecutable } from './find-executable.js';
import { forgetAtExit, killAtExit, killProcessGroup, processGroupAlive } from './process-group.js';
import type {
  OutputStream,
  ProcessEvents,
  ProcessHandle,
  ProcessPort,
  SpawnRequest,
} from './process-port.js';
import { prlimitCommand } from './rlimits.js';
import { onTerminal, TTY_REPORT_FD, ttyCommand } from './tty.js';

/**
 * Spawns `request` with Node's own `child_process.spawn` and returns its handle, synchronously.
 * The child is `detached` (it leads its own process group, pgid = pid) and every kill goes to the
 * whole group; stdin is a pipe only when there is input (`/dev/null` otherwise); the raw
 * stdout/stderr sockets are read with plain `'data'` events and paused on them. With a cgroup
 * ({@link openCgroup}) the child joins it before it runs the command ({@link containInCgroup}).
 *
 * A child that cannot start is reported through `events.spawnError` with a `SpawnError` carrying
 * the errno, syscall and path Node gave: synchronously when Node throws from its spawn or the
 * lookup of a wrapped command fails, on the next tick when Node emits `'error'` (`ENOENT`, …).
 */
export function spawnChild(request: SpawnRequest, events: ProcessEvents): ProcessHandle {
  let child: ChildProcess;
  let cgroup: CgroupRun | undefined;
  try {
    cgroup = openCgroup(request.containment ?? 'auto', request.limits);
    checkBeforeSpawn(request, cgroup !== undefined);
    child = start(request, cgroup);
  } catch (error) {
    cgroup?.remove();
    events.spawnError(toSpawnError(error, request));
    return deadHandle;
  }
  const { pid, stdin } = child;
  const stdout = child.stdout as NonNullable<ChildProcess['stdout']>;
  const stderr = child.stderr as NonNullable<ChildProcess['stderr']>;
  if (pid === undefined) {
    // No process: Node emits 'error' on the next tick; the pipes it opened are of no use.
    child.once('error', (error) => events.spawnError(toSpawnError(error, request)));
    for (const pipe of [stdin, stdout, stderr]) pipe?.destroy();
    cgroup?.remove();
    return deadHandle;
  }
  if (request.cleanup) killAtExit(pid);
  const listen = (stream: typeof stdout, name: OutputStream) => {
    stream.on('data', (bytes: Uint8Array) => events.data(name, bytes));
    stream.on('end', () => events.end(name));
    stream.on('error', () => {}); // a reset pipe just ends; 'close' follows
  };
  listen(stdout, 'stdout');
  listen(stderr, 'stderr');
  stdin?.on('error', () => {}); // EPIPE: the child stopped reading stdin, which is its right
  child.on('exit', (exitCode, signal) => events.exit({ exitCode, signal }));
  child.on('error', () => {}); // a started child's 'error' is a failed kill: we kill through the group
  const handle: ProcessHandle = {
    pid,
    pause: () => {
      stdout.pause();
      stderr.pause();
    },
    resume: () => {
      stdout.resume();
      stderr.resume();
    },
    killGroup: (signal) => {
      if (!killProcessGroup(pid, signal) || signal === 'SIGKILL') forgetAtExit(pid);
    },
    groupAlive: () => {
      const alive = processGroupAlive(pid);
      if (!alive) forgetAtExit(pid);
      return alive;
    },
    writeInput: (bytes, callback) => {
      if (stdin === null || stdin.destroyed || stdin.writableEnded) callback(new Error('stdin is closed'));
      else stdin.write(bytes, callback);
    },
    endInput: () => {
      if (stdin !== null && !stdin.writableEnded) stdin.end();
    },
    destroy: () => {
      stdout.removeAllListeners('data');
      stderr.removeAllListeners('data');
      stdout.destroy();
      stderr.destroy();
      stdin?.destroy();
    },
  };
  const report = child.stdio[TTY_REPORT_FD] as Readable | undefined;
  const terminal =
    report === undefined
      ? handle
      : onTerminal(handle, report, request.cleanup, cgroup === undefined ? undefined : cgroup.killFile);
  const endOnPidsHit = request.limits?.pids !== undefined;
  return cgroup === undefined ? terminal : containInCgroup(terminal, cgroup, request.cleanup, endOnPidsHit);
}

/**
 * Spawns the command wrapped, innermost first: under `prlimit` (`rlimits`), on a terminal (`tty`,
 * with a pipe on fd 3 for the terminal's report), joining the run's cgroup.
 */
function start(request: SpawnRequest, cgroup: CgroupRun | undefined): ChildProcess {
  const limited =
    request.rlimits === undefined
      ? { file: request.file, args: request.args }
      : prlimitCommand(request.file, request.args, request.rlimits);
  const env = childEnv(request);
  const terminal =
    request.tty === undefined
      ? { ...limited, env: {} }
      : ttyCommand(limited.file, limited.args, request.tty, env);
  const { file, args } =
    cgroup === undefined ? terminal : cgroupCommand(cgroup.procsFile, terminal.file, terminal.args);
  const stdin = request.hasInput ? 'pipe' : 'ignore';
  return spawn(file, args, {
    cwd: request.cwd,
    env: { ...env, ...terminal.env },
    stdio: request.tty === undefined ? [stdin, 'pipe', 'pipe'] : [stdin, 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
}

/**
 * Under `prlimit`, on a terminal or under the cgroup wrapper a missing command would be the
 * wrapper's failure: look it up first.
 */
function checkBeforeSpawn(request: SpawnRequest, wrapped: boolean): void {
  if (request.rlimits === undefined && request.tty === undefined && !wrapped) return;
  const found = findExecutable(request.file, childEnv(request).PATH, request.cwd);
  if (!('path' in found)) {
    // As Node reports it when it looks the file up itself.
    const error = new Error(`spawn ${request.file} ${found.errno}`) as NodeJS.ErrnoException;
    error.code = found.errno;
    error.syscall = `spawn ${request.file}`;
    error.path = request.file;
    throw error;
  }
}

function toSpawnError(error: unknown, request: SpawnRequest): unknown {
  if (isSluiceError(error)) return error;
  const { code, syscall, path } = (error ?? {}) as NodeJS.ErrnoException;
  const errno = typeof code === 'string' ? code : 'UNKNOWN';
  const info = {
    errno,
    file: request.file,
    cwd: request.cwd,
    ...(typeof syscall === 'string' ? { syscall } : {}),
    ...(typeof path === 'string' ? { path } : {}),
  };
  return new SpawnError(info, { cause: error, detail: describeCwd(request.cwd) ?? ERRNO_TEXT[errno] });
}

/** Node reports a missing `cwd` as ENOENT of the file: say which one is missing. */
function describeCwd(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  try {
    return statSync(cwd).isDirectory() ? undefined : `the \`cwd\` option is not a directory: ${cwd}`;
  } catch {
    return `the \`cwd\` option does not exist: ${cwd}`;
  }
}

const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  E2BIG: 'the arguments and environment are longer than the system allows',
  ENOTDIR: 'a path component is not a directory',
  ENOEXEC: 'not an executable format',
  EMFILE: 'too many open files in this process',
  ENOMEM: 'out of memory',
  EAGAIN: 'process limit reached',
};

/** The child's environment: `env` over `process.env` with `extendEnv`, `env` alone without. */
function childEnv(request: SpawnRequest): Record<string, string | undefined> {
  return request.extendEnv ? { ...process.env, ...request.env } : { ...request.env };
}

const deadHandle: ProcessHandle = {
  pid: undefined,
  pause() {},
  resume() {},
  killGroup() {},
  groupAlive: () => false,
  writeInput: (_bytes, callback) => callback(new Error('the process did not start')),
  endInput() {},
  destroy() {},
};

/**
 * The real {@link ProcessPort}, on Node's own `child_process` (see {@link spawnChild}): every
 * child leads its own process group, and every kill goes to the whole group. It is `exec`'s
 * default; give it explicitly to wrap it (record, delay, refuse what it spawns).
 */
export const childProcessPort: ProcessPort = { spawn: spawnChild };
