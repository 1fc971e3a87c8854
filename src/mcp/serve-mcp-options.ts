import type { SchedulerLike } from 'rxjs';

/** Options of {@link serveMcp}, checked before the server connects. */
export interface ServeMcpOptions {
  /**
   * Programs the Exec tool may start: `argv[0]` must be one of these, exactly (`npm`,
   * `/usr/bin/git`, `./build.sh`). Default none — the Exec tool is then not listed at all.
   */
  readonly allow?: readonly string[];
  /** Working directory of Exec calls; a call's relative `cwd` is resolved against it. Default `process.cwd()`. */
  readonly cwd?: string;
  /** Default and upper bound of an Exec call's `timeout_s`, in (0, 600]. Default `60`. */
  readonly timeoutS?: number;
  /**
   * The environment variable names an Exec call's `env` may set. Default: any but `LD_*`,
   * `DYLD_*` and `NODE_OPTIONS` (`serveMcpHttp`'s default: none).
   */
  readonly allowEnv?: readonly string[];
  /** An Exec call's `cwd` must be relative and stay under `cwd`. Default `false` (`serveMcpHttp`: always). */
  readonly confineCwd?: boolean;
  /** At most one progress notification per call per this many ms (0 – 2147483647). Default `20`. */
  readonly progressIntervalMs?: number;
  /** The server's name and version in the MCP handshake. Default `{ name: 'sluice', version: <sluice's version> }`. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** `ctx.pid` handed to tools. Default `process.pid`. */
  readonly pid?: number;
  /** The clock of the progress coalescing. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}
