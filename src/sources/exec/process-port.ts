import type { ExecRlimits } from './exec-types.js';

/** Which output pipe of a child. */
export type OutputStream = 'stdout' | 'stderr';

/** How a child ended: an exit code, or the signal that killed it. */
export interface ExitInfo {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** What `exec` asks a {@link ProcessPort} to start. */
export interface SpawnRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
  readonly extendEnv: boolean;
  readonly rlimits: ExecRlimits | undefined;
  /** Whether stdin must be a pipe (`writeInput`/`endInput` will be used); otherwise it is `/dev/null`. */
  readonly hasInput: boolean;
}

/**
 * The callbacks a port calls as the child runs. `data` may come before or after `exit`; `end` is
 * called once per pipe; `spawnError` replaces everything else when the child could not start.
 */
export interface ProcessEvents {
  data(stream: OutputStream, bytes: Uint8Array): void;
  end(stream: OutputStream): void;
  exit(info: ExitInfo): void;
  spawnError(error: unknown): void;
}

/** A running child, as `exec` drives it. */
export interface ProcessHandle {
  /** The child's pid, which is also its process group id; `undefined` if it did not start. */
  readonly pid: number | undefined;
  /** Stop reading both output pipes (the child blocks once the OS pipe buffer is full). */
  pause(): void;
  /** Read both output pipes again. */
  resume(): void;
  /** Send `signal` to every process of the child's group. */
  killGroup(signal: NodeJS.Signals): void;
  /** Whether any process of the group is still alive (zombies do not count). */
  groupAlive(): boolean;
  /** Write to stdin; `callback` runs once the bytes were handed to the OS (or with the write error). */
  writeInput(bytes: Uint8Array, callback: (error?: Error | null) => void): void;
  /** Close stdin. */
  endInput(): void;
  /** Stop listening and release the pipes (called when `exec` is done with the child). */
  destroy(): void;
}

/**
 * The seam between `exec` and a real process: callback-based and promise-free, so a fake port can
 * drive the very same `exec` code under virtual time (`TestScheduler.run`).
 *
 * `spawn` may call `events.spawnError` synchronously, before it returns.
 *
 * @example
 * ```ts
 * import { exec, type ProcessPort } from 'sluice';
 * const port: ProcessPort = {
 *   spawn(request, events) {
 *     queueMicrotask(() => {
 *       events.data('stdout', new TextEncoder().encode(`ran ${request.file}\n`));
 *       events.end('stdout');
 *       events.end('stderr');
 *       events.exit({ exitCode: 0, signal: null });
 *     });
 *     return {
 *       pid: 1, pause() {}, resume() {}, killGroup() {}, groupAlive: () => false,
 *       writeInput: (_bytes, callback) => callback(), endInput() {}, destroy() {},
 *     };
 *   },
 * };
 * exec('anything', [], { port }).subscribe(console.log);
 * ```
 */
export interface ProcessPort {
  spawn(request: SpawnRequest, events: ProcessEvents): ProcessHandle;
}
