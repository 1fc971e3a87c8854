import { describe, expect, it } from 'vitest';
import { cgroupLocation } from '../../../src/sources/exec/cgroup-support.js';

const mount = (id: number, root: string, point: string, type: string) =>
  `${id} 23 0:${id} ${root} ${point} rw,nosuid,nodev,noexec,relatime shared:9 - ${type} ${type} rw\n`;

describe('cgroupLocation: the directory of this process cgroup v2, from /proc', () => {
  it('pure cgroup v2 at /sys/fs/cgroup (current distributions)', () => {
    const mountinfo = mount(30, '/', '/sys/fs/cgroup', 'cgroup2');
    expect(cgroupLocation('0::/user.slice/user-1000.slice/session-2.scope\n', mountinfo)).toEqual({
      dir: '/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope',
    });
  });

  it('the hybrid layout: v1 controllers beside a cgroup2 at /sys/fs/cgroup/unified', () => {
    const mountinfo =
      mount(31, '/', '/sys/fs/cgroup', 'tmpfs') +
      mount(32, '/', '/sys/fs/cgroup/cpu', 'cgroup') +
      mount(41, '/', '/sys/fs/cgroup/unified', 'cgroup2');
    expect(cgroupLocation('4:memory:/x\n1:cpu:/\n0::/\n', mountinfo)).toEqual({
      dir: '/sys/fs/cgroup/unified',
    });
  });

  it('a container without its own cgroup namespace: the mount root is the container cgroup', () => {
    const mountinfo = mount(40, '/docker/abc', '/sys/fs/cgroup', 'cgroup2');
    expect(cgroupLocation('0::/docker/abc/app\n', mountinfo)).toEqual({ dir: '/sys/fs/cgroup/app' });
    expect(cgroupLocation('0::/docker/abc\n', mountinfo)).toEqual({ dir: '/sys/fs/cgroup' });
  });

  it('a mount point with a space (written \\040 in mountinfo)', () => {
    const mountinfo = mount(40, '/', '/mnt/my\\040cgroups', 'cgroup2');
    expect(cgroupLocation('0::/a\n', mountinfo)).toEqual({ dir: '/mnt/my cgroups/a' });
  });

  it('says why not: no v2 line, no cgroup2 mount, a cgroup outside every mount', () => {
    expect(cgroupLocation('1:cpu:/\n', mount(32, '/', '/sys/fs/cgroup/cpu', 'cgroup'))).toEqual({
      unavailable: expect.stringContaining('no `0::` line'),
    });
    expect(cgroupLocation('0::/\n', mount(32, '/', '/sys/fs/cgroup/cpu', 'cgroup'))).toEqual({
      unavailable: expect.stringContaining('no cgroup2 file system is mounted'),
    });
    expect(cgroupLocation('0::/elsewhere\n', mount(40, '/docker/abc', '/sys/fs/cgroup', 'cgroup2'))).toEqual({
      unavailable: expect.stringContaining('outside every mounted cgroup2'),
    });
  });

  it('a prefix that is not a whole path component does not count', () => {
    expect(
      cgroupLocation('0::/docker/abcdef\n', mount(40, '/docker/abc', '/sys/fs/cgroup', 'cgroup2')),
    ).toEqual({
      unavailable: expect.stringContaining('outside'),
    });
  });
});
