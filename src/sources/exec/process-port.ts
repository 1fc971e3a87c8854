import type { TerminalSize } from '../../core/terminal-size.js';
import type { Containment, ExecUsage, LimitName } from './exec-result.js';

/** `exec`'s `containment` option (docs/containment.md). */
export type ContainmentOption = 'auto' | 'cgroup' | 'group';

/**
 * Limits of a whole run — every process it starts, together, so a fork cannot escape them —
 * enforced by its cgroup (docs/containment.md, "Tree-wide limits"). Without a cgroup or a
 * limit's controller the run fails with `LIMIT_UNAVAILABLE`, never runs without them.
 */
export interface ExecLimits {
  /** `memory.max`, swap off: the OOM killer ends the whole run (`limitHit: 'memory'`). */
  memoryBytes?: number;
  /** `pids.max`: a fork past it fails, and sluice ends the run (`limitHit: 'pids'`). */
  pids?: number;
  /** `cpu.max`: at most this share of one CPU (200 = two CPUs); it slows the run, never ends it. */
  cpuPercent?: number;
}

/**
 * Resource limits applied to the child with `prlimit` (util-linux). `cpuSeconds` sets the soft
 * limit (the hard one is one second above it, so the child sees `SIGXCPU` first); the others set
 * soft = hard. Node children cannot start under an `addressSpaceBytes` of 512 MB or so (V8
 * reserves a large virtual region up front): use it for non-Node children.
 */
export interface ExecRlimits {
  cpuSeconds?: number;
  addressSpaceBytes?: number;
  fileSizeBytes?: number;
  openFiles?: number;
}

/** The size of a terminal, in character cells. */
export type TtySize = TerminalSize;

/** Which output pipe of a child. */
export type OutputStream = 'stdout' | 'stderr';

/** How a child ended: an exit code, or (`exitCode` `null`) the signal that killed it. */
export interface ExitInfo {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** What `exec` asks a {@link ProcessPort} to start: the validated `exec` arguments and options. */
export interface SpawnRequest {
  /** Resolved on `PATH` by the port. */
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
  /** `undefined` as a value removes a variable. */
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
  readonly extendEnv: boolean;
  readonly rlimits: ExecRlimits | undefined;
  /** Whether stdin must be a pipe (`writeInput`/`endInput` will be used); otherwise it is `/dev/null`. */
  readonly hasInput: boolean;
  /** Whether the group must be killed if this Node process ends while it runs (`exec`'s `cleanup`). */
  readonly cleanup: boolean;
  /** How to contain the run (`exec`'s `containment`; absent means `'auto'`). */
  readonly containment?: ContainmentOption;
  /** Limits of the whole run, enforced by its cgroup (`exec`'s `limits`), if any. */
  readonly limits?: ExecLimits | undefined;
  /**
   * Run the command on a pseudo-terminal of this size (`exec`'s `tty`): its stdin, stdout and
   * stderr are the terminal, whose output arrives as `stdout`. Absent: pipes.
   */
  readonly tty?: TtySize | undefined;
}

/** What a {@link ProcessHandle} tells about a finished run's containment. */
export interface ContainmentReport {
  readonly containment: Containment;
  readonly usage: ExecUsage | null;
  readonly limitHit: LimitName | null;
}

/**
 * The callbacks a port calls as the child runs. `data` may come before or after `exit`; `end` is
 * called once per pipe; `spawnError` replaces everything else when the child could not start.
 */
export interface ProcessEvents {
  data(stream: OutputStream, bytes: Uint8Array): void;
  end(stream: OutputStream): void;
  exit(info: ExitInfo): void;
  /** The child could not start (e.g. a `SpawnError` with `ENOENT`); no other callback follows. */
  spawnError(error: unknown): void;
}

/** A running child, as `exec` drives it: what {@link ProcessPort.spawn} returns. */
export interface ProcessHandle {
  /** The child's pid, which is also its process group id; `undefined` if it did not start. */
  readonly pid: number | undefined;
  /** Stop reading both output pipes (the child blocks once the OS pipe buffer is full). */
  pause(): void;
  resume(): void;
  /** Send `signal` to every process of the child's group. */
  killGroup(signal: NodeJS.Signals): void;
  /** Whether any process of the group is still alive (zombies do not count). */
  groupAlive(): boolean;
  /** Write to stdin; `callback` runs once the bytes were handed to the OS (or with the write error). */
  writeInput(bytes: Uint8Array, callback: (error?: Error | null) => void): void;
  endInput(): void;
  /** Stop listening and release the pipes (called when `exec` is done with the child). */
  destroy(): void;
  /** Set the size of the child's terminal (a run with `tty`; absent on other handles). */
  resize?(size: TtySize): void;
  /**
   * How the run was contained and what it used, asked once when the run ends. Absent means
   * `{ containment: 'group', usage: null, limitHit: null }` (a port without cgroups).
   */
  containment?(): ContainmentReport;
}

/**
 * The seam between `exec` and a real process: callback-based and promise-free, so a fake port can
 * drive the very same `exec` code under virtual time (`TestScheduler.run`).
 *
 * `spawn` may call `events.spawnError` synchronously, before it returns.
 */
export interface ProcessPort {
  spawn(request: SpawnRequest, events: ProcessEvents): ProcessHandle;
}
