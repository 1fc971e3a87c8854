import { createHash } from 'node:crypto';
import { OwnerLostError } from '../core/errors/owner-lost-error.js';
import { RunStoreError } from '../core/errors/run-store-error.js';
import { toRunFailure } from '../runs/run-failure.js';
import type { RedisClient } from './redis-run-context.js';
import type { RunKeys } from './run-keys.js';

/** One Lua script of the Redis run store, with its SHA-1 (for `EVALSHA`). Internal. */
export interface RunScript {
  readonly lua: string;
  readonly sha: string;
}

const script = (lua: string): RunScript => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });

// Every script takes KEYS = [meta, events, lease] (one slot: the run id is their hash tag) and
// checks the run's state before it writes, so that a writer that lost its lease, a resend after a
// reconnect and a concurrent owner-lost declaration can never interleave wrongly. Entry IDs derive
// from sequences (docs/scaling.md): a batch holding sequences first..last-1 gets `<last>-0`; a
// terminal control entry at position n gets `<n>-1`. `XREAD … <n>-0` thus returns everything from
// sequence n on.

/**
 * ARGV: owner, leaseMs, ttlMs, startedAt, label, traceparent, tracestate (the trace context the run
 * was opened in, `''` without one: a follower's span links to it). Takes a new or queued run; the
 * same OPEN sent again (a retry after a lost connection: same owner and startedAt) is acknowledged.
 */
export const OPEN = script(`
local meta = redis.call('HMGET', KEYS[1], 'state', 'owner', 'started')
local state = meta[1]
if state == 'running' and meta[2] == ARGV[1] and meta[3] == ARGV[4] then return 'OK' end
if state and state ~= 'queued' then return redis.error_reply('EXISTS ' .. state) end
redis.call('HSET', KEYS[1], 'state', 'running', 'owner', ARGV[1], 'next', '0', 'started', ARGV[4])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'label', ARGV[5]) end
if ARGV[6] and ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'traceparent', ARGV[6], 'tracestate', ARGV[7] or '') end
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 'OK'
`);

/**
 * ARGV: owner, first, count, payload, final (1|0), maxEvents, ttlMs, retainMs, maxBytes. Returns the
 * new `next`. Retention (docs/scaling.md): after the new entry, the oldest entries go while they
 * hold only events older than the newest `maxEvents`, or while the retained payload (`bytes` in
 * the meta: the sum of the entries' `e` fields) exceeds `maxBytes` — never the newest entry. Each
 * trimmed entry is read once (its size), then one `XTRIM MINID` frees them together.
 */
export const APPEND = script(`
local meta = redis.call('HMGET', KEYS[1], 'state', 'owner', 'next', 'end', 'bytes')
if not meta[1] then return redis.error_reply('GONE') end
local first = tonumber(ARGV[2])
local last = first + tonumber(ARGV[3])
local next = tonumber(meta[3] or '0')
if meta[2] ~= ARGV[1] then return redis.error_reply('NOTOWNER') end
if meta[1] == 'ended' then
  if meta[4] == 'final' and last <= next then return next end
  return redis.error_reply('ENDED ' .. (meta[4] or 'ended'))
end
if first < next then
  if last <= next then return next end
  return redis.error_reply('SEQUENCE ' .. next .. ' ' .. first)
end
if first > next then return redis.error_reply('SEQUENCE ' .. next .. ' ' .. first) end
local newest = last .. '-0'
redis.call('XADD', KEYS[2], newest, 'f', ARGV[2], 'e', ARGV[4])
local bytes = tonumber(meta[5] or '0') + #ARGV[4]
local oldEnd = last - tonumber(ARGV[6])
local maxBytes = tonumber(ARGV[9])
local cursor = '-'
local keep = nil
while true do
  local entry = redis.call('XRANGE', KEYS[2], cursor, '+', 'COUNT', 1)[1]
  if not entry or entry[1] == newest then keep = newest break end
  local id = entry[1]
  if tonumber(string.match(id, '^(%d+)')) > oldEnd and bytes <= maxBytes then keep = id break end
  local fields = entry[2]
  for i = 1, #fields, 2 do
    if fields[i] == 'e' then bytes = bytes - #fields[i + 1] end
  end
  cursor = '(' .. id
end
if cursor ~= '-' then redis.call('XTRIM', KEYS[2], 'MINID', keep) end
redis.call('HSET', KEYS[1], 'next', last, 'bytes', bytes)
local ttl = ARGV[7]
if ARGV[5] == '1' then
  redis.call('HSET', KEYS[1], 'state', 'ended', 'end', 'final')
  redis.call('DEL', KEYS[3])
  ttl = ARGV[8]
end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return last
`);

/** ARGV: owner, failure payload, retainMs. Ends the run with a failure entry. */
export const FAIL = script(`
local meta = redis.call('HMGET', KEYS[1], 'state', 'owner', 'next', 'end')
if not meta[1] then return redis.error_reply('GONE') end
if meta[2] ~= ARGV[1] then return redis.error_reply('NOTOWNER') end
if meta[1] == 'ended' then
  if meta[4] == 'failed' then return 'OK' end
  return redis.error_reply('ENDED ' .. (meta[4] or 'ended'))
end
local next = meta[3] or '0'
redis.call('XADD', KEYS[2], next .. '-1', 't', 'failure', 'e', ARGV[2])
redis.call('HSET', KEYS[1], 'state', 'ended', 'end', 'failed')
redis.call('DEL', KEYS[3])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 'OK'
`);

/** ARGV: owner, leaseMs, ttlMs. Renews the lease; returns a pending cancel reason or ''. */
export const HEARTBEAT = script(`
local meta = redis.call('HMGET', KEYS[1], 'state', 'owner', 'cancel', 'end')
if not meta[1] then return redis.error_reply('GONE') end
if meta[2] ~= ARGV[1] then return redis.error_reply('NOTOWNER') end
if meta[1] == 'ended' then return redis.error_reply('ENDED ' .. (meta[4] or 'ended')) end
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return meta[3] or ''
`);

/**
 * ARGV: failure payload, retainMs. Anybody may call it: if the run is running and its lease has
 * expired, ends it with the OWNER_LOST failure. Returns GONE, ALIVE, LOST, or the state.
 */
export const OWNER_LOST = script(`
local meta = redis.call('HMGET', KEYS[1], 'state', 'next')
if not meta[1] then return 'GONE' end
if meta[1] ~= 'running' then return meta[1] end
if redis.call('EXISTS', KEYS[3]) == 1 then return 'ALIVE' end
redis.call('XADD', KEYS[2], (meta[2] or '0') .. '-1', 't', 'failure', 'e', ARGV[1])
redis.call('HSET', KEYS[1], 'state', 'ended', 'end', 'owner-lost')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 'LOST'
`);

/**
 * ARGV: request (the sentinel's metadata as JSON), control channel, sentinel payload, retainMs.
 * A running run gets the request (recorded in its meta for the owner's next heartbeat, and
 * published at once); a queued run is ended here with the cancelled sentinel. Returns 1 when the
 * run was live, 0 otherwise.
 */
export const CANCEL = script(`
local state = redis.call('HGET', KEYS[1], 'state')
if not state or state == 'ended' then return 0 end
if state == 'queued' then
  redis.call('XADD', KEYS[2], '1-0', 'f', '0', 'e', ARGV[3])
  redis.call('HSET', KEYS[1], 'state', 'ended', 'end', 'final', 'next', '1')
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  return 1
end
redis.call('HSET', KEYS[1], 'cancel', ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1
`);

/** ARGV: job payload, ttlMs. Creates a queued run (fails if the id exists). */
export const SUBMIT = script(`
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('EXISTS') end
redis.call('HSET', KEYS[1], 'state', 'queued', 'next', '0', 'job', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 'OK'
`);

/** Every script of the store: loaded (`SCRIPT LOAD`) as a store's connection opens. */
export const RUN_SCRIPTS: readonly RunScript[] = [OPEN, APPEND, FAIL, HEARTBEAT, OWNER_LOST, CANCEL, SUBMIT];

/**
 * Runs `script` on run `keys` with `EVALSHA`, falling back to `EVAL` when the server does not have
 * it cached (`NOSCRIPT`: a new or restarted server). Commands on one connection run in order, so
 * two pipelined calls that both fall back are retried in their order. Internal.
 */
export async function evalScript(
  client: RedisClient,
  script: RunScript,
  keys: RunKeys,
  args: readonly (string | number)[],
): Promise<unknown> {
  const runKeys = [keys.meta, keys.events, keys.lease];
  try {
    return await client.evalsha(script.sha, 3, ...runKeys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(script.lua, 3, ...runKeys, ...args);
  }
}

/**
 * The {@link OWNER_LOST} verdict on run `runId`: ends it with `OWNER_LOST` if it is running and its
 * lease has expired. Resolves `GONE`, `ALIVE`, `LOST`, or the run's state. Internal.
 */
export function judgeOwner(
  client: RedisClient,
  keys: RunKeys,
  runId: string,
  retainMs: number,
): Promise<unknown> {
  const lost = JSON.stringify(toRunFailure(new OwnerLostError({ runId, owner: undefined })));
  return evalScript(client, OWNER_LOST, keys, [lost, retainMs]);
}

/** The `RUN_NOT_FOUND` error of a run the store does not have. Internal. */
export function runNotFound(runId: string): RunStoreError {
  return new RunStoreError('RUN_NOT_FOUND', `Run ${runId} does not exist (or its retention has passed)`, {
    info: { runId },
  });
}
