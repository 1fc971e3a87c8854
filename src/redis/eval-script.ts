import type { RedisClient } from './redis-client.js';
import type { RunScript } from './run-scripts.js';

/**
 * Runs `script` with `EVALSHA`, falling back to `EVAL` when the server does not have it cached
 * (`NOSCRIPT`: a new or restarted server). Commands on one connection run in order, so two
 * pipelined calls that both fall back are retried in their order. Internal.
 *
 * @example
 * ```ts
 * const next = await evalScript(client, APPEND, [keys.meta, keys.events, keys.lease], args);
 * ```
 */
export async function evalScript(
  client: RedisClient,
  script: RunScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(script.lua, keys.length, ...keys, ...args);
  }
}
