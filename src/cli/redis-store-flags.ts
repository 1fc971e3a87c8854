import { redisUrlFlag } from './redis-url-flag.js';
import { wholeNumberFlag } from './whole-number-flag.js';

/**
 * The flags of every subcommand that writes runs to Redis (`exec --redis`, `submit`, `worker`),
 * for `parseArgs`: where the store is (`--redis`, `--redis-cluster`), how long a command may wait
 * for it before publishing fails (`--redis-timeout-ms`: the store's `failAfterMs`), and how much of
 * each run it keeps (`--max-events`, `--max-bytes`, `--retain-ms`; defaults in docs/scaling.md).
 */
export const REDIS_STORE_FLAGS = {
  redis: { type: 'string' },
  'redis-cluster': { type: 'string' },
  'max-events': { type: 'string' },
  'max-bytes': { type: 'string' },
  'retain-ms': { type: 'string' },
  'redis-timeout-ms': { type: 'string' },
} as const;

/**
 * Reads {@link REDIS_STORE_FLAGS} into the options of a `RedisRunStore`: the connection, and the
 * retention flags that were given (the store's defaults for the others).
 *
 * @example
 * ```ts
 * const { values } = parseSubcommandArgs(argv, { ...REDIS_STORE_FLAGS });
 * const store = new RedisRunStore(redisStoreFlags(values, USAGE));
 * ```
 */
export function redisStoreFlags(
  values: Readonly<Record<string, string | boolean | string[] | undefined>>,
  usage: string,
): ReturnType<typeof redisUrlFlag> & {
  maxEvents?: number;
  maxBytes?: number;
  retainMs?: number;
  failAfterMs?: number;
} {
  const connection = redisUrlFlag(
    values.redis as string | undefined,
    usage,
    values['redis-cluster'] as string | undefined,
  );
  const max = Number.MAX_SAFE_INTEGER;
  const read = (flag: string) => {
    const value = values[flag] as string | undefined;
    return value === undefined ? undefined : wholeNumberFlag(flag, value, 0, 1, max);
  };
  const maxEvents = read('max-events');
  const maxBytes = read('max-bytes');
  const retainMs = read('retain-ms');
  const failAfterMs = read('redis-timeout-ms');
  return {
    ...(failAfterMs === undefined ? {} : { failAfterMs }),
    ...connection,
    ...(maxEvents === undefined ? {} : { maxEvents }),
    ...(maxBytes === undefined ? {} : { maxBytes }),
    ...(retainMs === undefined ? {} : { retainMs }),
  };
}
