import type { SchedulerLike } from 'rxjs';
import type { ExecOptions } from '../../sources/exec.js';
import type { ExecToolArgs } from './exec-tool-args.js';
import { runsNode } from './runs-node.js';

const DEFAULT_AS_BYTES = 512 * 1024 * 1024;
const DEFAULT_FSIZE_BYTES = 64 * 1024 * 1024;
const DEFAULT_NOFILE = 256;

/** The terminal of an Exec tool call with `tty: true`. */
const TERMINAL = { columns: 80, rows: 24 } as const;

/**
 * How the host sets up the Exec tool (see {@link createExecTool}) — what the caller of a tool may
 * not choose: how its commands are contained (`containment`, `exec`'s option: default `'auto'`,
 * their own cgroup where this machine allows it, so a command's daemons die with the call) and
 * the tree-wide `limits` of every command (`exec`'s `limits`: they need a cgroup and its
 * controllers, or every call fails with `LIMIT_UNAVAILABLE`); and, for tests, the scheduler of its
 * timeout and durations and the process port of the `exec` source.
 */
export interface ExecToolConfig {
  readonly scheduler?: SchedulerLike | undefined;
  readonly port?: ExecOptions['port'];
  readonly containment?: ExecOptions['containment'];
  readonly limits?: ExecOptions['limits'];
}

/**
 * Maps parsed Exec tool arguments to options of the `exec` source: `reject: false` (the tool
 * reports failures in its result), lines on, `tty: true` as an 80 × 24 terminal, the kernel's default rlimits (512 MB address space,
 * 64 MB file size, 256 open files) filled in.
 *
 * The default address-space limit is **not** applied when `argv[0]` starts Node — `node`,
 * `nodejs`, `node20`, … or `process.execPath`, or a script whose `#!` line runs Node, such as
 * `npm` or `npx` (looked up through `env.PATH` or the parent's `PATH`): V8 reserves a large
 * virtual region up front and cannot even start under 512 MB. An explicit `rlimits.as_bytes` is
 * always applied, Node or not.
 *
 * @example
 * ```ts
 * import { execToolArgsSchema, toExecOptions } from 'sluice/kernel';
 * toExecOptions(execToolArgsSchema.parse({ argv: ['python3', 'x.py'], timeout_s: 5 }), {});
 * // { timeoutMs: 5000, reject: false, rlimits: { addressSpaceBytes: 536870912, … }, … }
 * ```
 */
export function toExecOptions(args: ExecToolArgs, config: ExecToolConfig): ExecOptions {
  const { rlimits } = args;
  const file = args.argv[0] ?? '';
  const path = args.env?.PATH ?? process.env.PATH;
  const addressSpaceBytes =
    rlimits.as_bytes ?? (runsNode(file, path, args.cwd) ? undefined : DEFAULT_AS_BYTES);
  const options: ExecOptions = {
    lines: true,
    reject: false,
    timeoutMs: Math.max(1, Math.round(args.timeout_s * 1000)),
    maxOutputBytes: args.max_output_bytes,
    rlimits: {
      ...(rlimits.cpu_s === undefined ? {} : { cpuSeconds: rlimits.cpu_s }),
      ...(addressSpaceBytes === undefined ? {} : { addressSpaceBytes }),
      fileSizeBytes: rlimits.fsize_bytes ?? DEFAULT_FSIZE_BYTES,
      openFiles: rlimits.nofile ?? DEFAULT_NOFILE,
    },
  };
  if (args.tty) options.tty = TERMINAL;
  if (args.cwd !== undefined) options.cwd = args.cwd;
  if (args.env !== undefined) options.env = args.env;
  if (config.scheduler !== undefined) options.scheduler = config.scheduler;
  if (config.port !== undefined) options.port = config.port;
  if (config.containment !== undefined) options.containment = config.containment;
  if (config.limits !== undefined) options.limits = config.limits;
  return options;
}
