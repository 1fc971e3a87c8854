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
