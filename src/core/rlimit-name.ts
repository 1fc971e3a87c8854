/**
 * The resource limit a child ran into, as far as sluice can tell (see the
 * `rlimits` option of `exec`).
 */
export type RlimitName = 'cpu' | 'addressSpace' | 'fileSize' | 'openFiles';
