/** The longest timer delay (2^31 − 1 ms): a longer one fires at once. Every delay option is capped at it. */
export const MAX_DELAY_MS = 2_147_483_647;
