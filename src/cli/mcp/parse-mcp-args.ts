import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { CliUsageError, flagError, readIntegerFlag } from '../cli-usage-error.js';
import { type GivenFlags, parseSubcommandArgs } from '../parse-subcommand-args.js';
import {
  REDIS_CONNECTION_FLAGS,
  type RedisConnectionFlag,
  readRedisConnection,
} from '../redis-store-flags.js';
import { HELP_FLAG } from '../subcommand.js';

/**
 * How `sluice mcp --http` serves: the address, the names `Host` may carry besides it, the run
 * store (`--redis`), and whether a token is required.
 */
export interface McpHttpFlags {
  readonly host: string;
  readonly port: number;
  readonly allowHosts: readonly string[];
  /** Where the store is: `--redis <url>` or `--redis-cluster <host:port,…>`; `undefined`: memory. */
  readonly redis: RedisConnectionFlag | undefined;
  readonly noToken: boolean;
  /** `--session-idle-s`: how long a session may be idle before it ends, in seconds (default 1800). */
  readonly sessionIdleS: number;
}

/**
 * What `sluice mcp` was asked to do: show help, or serve with these Exec settings — over stdio,
 * or over HTTP when `http` is set.
 */
export interface McpCommand {
  readonly help: boolean;
  readonly allow: readonly string[];
  readonly cwd: string;
  readonly timeoutS: number;
  /** `--allow-env NAME` (HTTP only): the variables a call's `env` may set. */
  readonly allowEnv: readonly string[];
  /** `--http` and its flags; `undefined`: stdio. */
  readonly http: McpHttpFlags | undefined;
}

/** The flags of `sluice mcp`. */
export const MCP_FLAGS = {
  ...HELP_FLAG,
  allow: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  'timeout-s': { type: 'string' },
  http: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'allow-env': { type: 'string', multiple: true },
  ...REDIS_CONNECTION_FLAGS,
  'no-token': { type: 'boolean' },
  'session-idle-s': { type: 'string' },
} as const;

const HTTP_ONLY = [
  'host',
  'port',
  'allow-host',
  'allow-env',
  'redis',
  'redis-cluster',
  'no-token',
  'session-idle-s',
] as const;

/** The longest `--session-idle-s`: the longest timer Node runs (`MAX_DELAY_MS`), in whole seconds. */
const MAX_SESSION_IDLE_S = Math.floor(MAX_DELAY_MS / 1000);

/** A number of seconds as the flags take it (`60`, `2.5`: no sign, no exponent); `NaN` otherwise. */
const secondsOf = (text: string) => (/^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN);

/**
 * Reads the arguments of `sluice mcp`, as its help text (`mcp-help.ts`) lists them and
 * docs/cli.md, "`sluice mcp`" describes them. A bad command line is a `CliUsageError` (exit code 2).
 */
export function parseMcpArgs(argv: readonly string[], cwd: string = process.cwd()): McpCommand {
  const { values, positionals, rest } = parseSubcommandArgs(argv, MCP_FLAGS);
  const extra = [...positionals, ...rest][0];
  if (extra !== undefined)
    throw new CliUsageError(`Unexpected argument \`${extra}\`: \`sluice mcp [options]\``);
  const allow = (values.allow as string[] | undefined) ?? [];
  const empty = allow.find((program) => program.trim() === '');
  if (empty !== undefined) throw flagError('allow', 'a program name or path', empty);
  const dir = resolve(cwd, (values.cwd as string | undefined) ?? '.');
  if (!isDirectory(dir)) throw flagError('cwd', 'a directory', values.cwd);
  const timeoutText = (values['timeout-s'] as string | undefined) ?? '60';
  const timeoutS = secondsOf(timeoutText);
  if (!(timeoutS > 0 && timeoutS <= 600)) {
    throw flagError('timeout-s', 'a number of seconds in (0, 600]', timeoutText);
  }
  const allowEnv = (values['allow-env'] as string[] | undefined) ?? [];
  const badName = allowEnv.find((name) => name === '' || /[=\0]/.test(name));
  if (badName !== undefined) throw flagError('allow-env', 'an environment variable name', badName);
  const http = values.http === true ? readHttpFlags(values) : undefined;
  if (http === undefined) {
    const stray = HTTP_ONLY.find((flag) => values[flag] !== undefined);
    if (stray !== undefined) throw new CliUsageError(`\`--${stray}\` needs \`--http\``);
  }
  return { help: values.help === true, allow, cwd: dir, timeoutS, allowEnv, http };
}

function readHttpFlags(values: GivenFlags): McpHttpFlags {
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  if (host === '') throw flagError('host', 'an address or host name', host);
  const port = readIntegerFlag('port', values.port as string | undefined, 0, 0, 65_535);
  const allowHosts = (values['allow-host'] as string[] | undefined) ?? [];
  const badHost = allowHosts.find(
    (name) => !/^[^\s/:]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/.test(name),
  );
  if (badHost !== undefined) throw flagError('allow-host', 'a host name, optionally with :port', badHost);
  const redis =
    values.redis === undefined && values['redis-cluster'] === undefined
      ? undefined
      : readRedisConnection(values, 'sluice mcp --http --redis <url>');
  const noToken = values['no-token'] === true;
  if (noToken && !isLoopback(host)) {
    throw new CliUsageError(
      `\`--no-token\` is for a loopback host only (127.0.0.1, ::1, localhost), not \`${host}\``,
    );
  }
  const idleText = (values['session-idle-s'] as string | undefined) ?? '1800';
  const sessionIdleS = secondsOf(idleText);
  if (!(sessionIdleS >= 1 && sessionIdleS <= MAX_SESSION_IDLE_S)) {
    throw flagError('session-idle-s', `a number of seconds from 1 to ${MAX_SESSION_IDLE_S}`, idleText);
  }
  return { host, port, allowHosts, redis, noToken, sessionIdleS };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
