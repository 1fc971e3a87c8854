/**
 * The longest delay a timer can be given, in ms (2^31 − 1, about 24.8 days). Node and browsers
 * store timer delays as signed 32-bit integers: a longer one fires after about 1 ms instead. Every
 * delay option of sluice (`timeoutMs`, `forceKillAfterMs`, `ms`, `maxDelayMs`, the CLI's
 * `--timeout-ms` and `--stall-timeout-ms`) is capped at it. Internal: not exported from the package.
 */
export const MAX_DELAY_MS = 2_147_483_647;
