import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { execa } from 'execa';
import { isSluiceError } from '../../core/errors/sluice-error.js';
import { SpawnError } from '../../core/errors/spawn-error.js';
import { trackProcessGroup, untrackProcessGroup } from './exit-cleanup.js';
import { findExecutable } from './find-executable.js';
import { prlimitCommand } from './prlimit.js';
import { killProcessGroup, processGroupAlive } from './process-group.js';
import type { OutputStream, ProcessEvents, ProcessHandle, SpawnRequest } from './process-port.js';

type Execa = typeof execa;

/**
 * Spawns `request` with execa 9 (passed in, so that only the caller decides when execa is
 * loaded) and returns its handle, synchronously. execa resolves the file, builds the environment
 * (`env` + `extendEnv`) and spawns; sluice reads the raw stdout/stderr sockets itself (`buffer:
 * false`, plain `'data'` events, `pause()`/`resume()` on the sockets) and drives termination
 * itself: the child is `detached` (it leads its own process group, pgid = pid) and every kill goes
 * to the whole group. execa's own promise is only drained, never relied on. A child that cannot
 * start is reported through `events.spawnError` (synchronously for a failed lookup under
 * `rlimits`).
 *
 * @example
 * ```ts
 * const { execa } = await import('execa');
 * const handle = spawnWithExeca(execa, request, events);
 * handle.pause();
 * ```
 */
export function spawnWithExeca(execa: Execa, request: SpawnRequest, events: ProcessEvents): ProcessHandle {
  let subprocess: ReturnType<typeof start>;
  try {
    checkBeforeSpawn(request);
    subprocess = start(execa, request);
  } catch (error) {
    events.spawnError(toSpawnError(error, request));
    return deadHandle;
  }
  const pid = subprocess.pid;
  if (pid !== undefined && request.cleanup) trackProcessGroup(pid);
  const stdout = subprocess.stdout as Readable;
  const stderr = subprocess.stderr as Readable;
  const stdin = subprocess.stdin as Writable | null;
  const listen = (stream: Readable, name: OutputStream) => {
    stream.on('data', (bytes: Uint8Array) => events.data(name, bytes));
    stream.on('end', () => events.end(name));
    stream.on('error', () => {}); // a reset pipe just ends; 'close' follows
  };
  listen(stdout, 'stdout');
  listen(stderr, 'stderr');
  stdin?.on('error', () => {}); // EPIPE: the child stopped reading stdin, which is its right
  subprocess.on('exit', (exitCode, signal) => events.exit({ exitCode, signal }));
  subprocess.on('error', () => {}); // reported through the promise below
  // A child that never started has no 'exit': Node either threw from its spawn (ENOTDIR, E2BIG, …:
  // execa then hands back a stand-in without an 'error' event) or emits 'error' (ENOENT, EACCES).
  // Either way execa's promise settles with the cause, and that settles the run.
  subprocess.then(
    (result) => {
      if (pid === undefined) events.spawnError(toSpawnError(result.cause ?? result, request));
    },
    (error: unknown) => {
      if (pid === undefined) events.spawnError(toSpawnError(error, request));
    },
  );
  return {
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
      if (pid === undefined) return;
      if (!killProcessGroup(pid, signal) || signal === 'SIGKILL') untrackProcessGroup(pid);
    },
    groupAlive: () => {
      if (pid === undefined) return false;
      const alive = processGroupAlive(pid);
      if (!alive) untrackProcessGroup(pid);
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
}

function start(execa: Execa, request: SpawnRequest) {
  const { file, args } =
    request.rlimits === undefined
      ? { file: request.file, args: request.args }
      : prlimitCommand(request.file, request.args, request.rlimits);
  return execa(file, args, {
    cwd: request.cwd,
    env: request.env,
    extendEnv: request.extendEnv,
    stdin: request.hasInput ? 'pipe' : 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    encoding: 'buffer',
    stripFinalNewline: false,
    detached: true,
    cleanup: false,
    reject: false,
    forceKillAfterDelay: false,
  });
}

/** Under `prlimit` a missing command would be prlimit's own failure: look it up first. */
function checkBeforeSpawn(request: SpawnRequest): void {
  if (request.rlimits === undefined) return;
  const env = request.extendEnv ? { ...process.env, ...request.env } : { ...request.env };
  const found = findExecutable(request.file, env.PATH, request.cwd);
  if (!('path' in found)) {
    const error = new Error(`spawn ${request.file} ${found.errno}`) as NodeJS.ErrnoException;
    error.code = found.errno;
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
  return new SpawnError(info, { cause: error, detail: describeCwd(request.cwd) ?? describeErrno(errno) });
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

function describeErrno(errno: string): string | undefined {
  return ERRNO_TEXT[errno];
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
