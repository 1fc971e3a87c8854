import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';

/** Whether runs can get their own cgroup here: the cgroup to create them under, or why not. */
type CgroupSupport = { readonly base: string } | { readonly unavailable: string };

let cached: CgroupSupport | undefined;

/**
 * Tells once per process (the answer is kept) whether runs can be contained by cgroup: this
 * process's own cgroup v2 directory and its `cgroup.procs` must be writable (moving a child below
 * needs both), and a trial cgroup made there must have `cgroup.kill` (docs/containment.md,
 * "Getting a cgroup").
 */
export function cgroupSupport(): CgroupSupport {
  cached ??= probe();
  return cached;
}

function probe(): CgroupSupport {
  const location = readCgroupLocation();
  if ('unavailable' in location) return location;
  const { dir } = location;
  if (!existsSync(`${dir}/cgroup.procs`)) {
    return { unavailable: `this process's cgroup directory ${dir} cannot be read` };
  }
  const trial = `${dir}/sluice-${process.pid}-probe`;
  try {
    accessSync(dir, constants.W_OK);
    accessSync(`${dir}/cgroup.procs`, constants.W_OK);
    mkdirSync(trial);
  } catch (error) {
    return {
      unavailable:
        `this process may not create cgroups in ${dir} (${(error as NodeJS.ErrnoException).code}): run as root, ` +
        'or in a delegated subtree such as `systemd-run --user --scope -p Delegate=yes …` (see docs/containment.md)',
    };
  }
  const killable = existsSync(`${trial}/cgroup.kill`);
  rmdirSync(trial);
  if (!killable) return { unavailable: 'the kernel has no cgroup.kill (Linux 5.14 or later is needed)' };
  return { base: dir };
}

/** Where this process sits in the cgroup v2 hierarchy, or why it sits in none. */
export type CgroupLocation = { readonly dir: string } | { readonly unavailable: string };

/**
 * Finds the directory of this process's own cgroup v2 from the texts of `/proc/self/cgroup` (its
 * `0::<path>` line) and `/proc/self/mountinfo` (a `cgroup2` mount whose root is a prefix of that
 * path), or why there is none (docs/containment.md, "What a cgroup catches").
 */
export function cgroupLocation(procCgroup: string, mountinfo: string): CgroupLocation {
  const line = procCgroup.split('\n').find((entry) => entry.startsWith('0::'));
  if (line === undefined) {
    return { unavailable: 'this process is in no cgroup v2 hierarchy (/proc/self/cgroup has no `0::` line)' };
  }
  const own = line.slice(3);
  let mountedElsewhere = false;
  for (const mount of mountinfo.split('\n')) {
    const separator = mount.indexOf(' - ');
    if (separator < 0 || !mount.slice(separator + 3).startsWith('cgroup2 ')) continue;
    const fields = mount.slice(0, separator).split(' ');
    const root = unescapeMountField(fields[3] ?? '');
    const point = unescapeMountField(fields[4] ?? '');
    const inside = relativeTo(own, root);
    if (inside === undefined) {
      mountedElsewhere = true;
      continue;
    }
    return { dir: inside === '' ? point : `${point.replace(/\/$/, '')}/${inside}` };
  }
  return {
    unavailable: mountedElsewhere
      ? `this process's cgroup (${own}) is outside every mounted cgroup2 file system`
      : 'no cgroup2 file system is mounted (/proc/self/mountinfo)',
  };
}

/** {@link cgroupLocation} of this machine's `/proc`. */
function readCgroupLocation(): CgroupLocation {
  let procCgroup: string;
  let mountinfo: string;
  try {
    procCgroup = readFileSync('/proc/self/cgroup', 'utf8');
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return { unavailable: `there are no cgroups on this system (${process.platform}: no /proc/self/cgroup)` };
  }
  return cgroupLocation(procCgroup, mountinfo);
}

/** `path` below `root` without the leading `/` (`''` for `root` itself), or `undefined`. */
function relativeTo(path: string, root: string): string | undefined {
  if (root === '/') return path.replace(/^\/+/, '');
  if (path === root) return '';
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
}

/** mountinfo writes a space, tab, newline and backslash in a path as `\040`, `\011`, `\012`, `\134`. */
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}
