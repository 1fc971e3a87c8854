const BRAND = Symbol.for('sluice.error');

/**
 * Every code sluice throws, puts on a failed hostcall or tool result, or stores for a failed run
 * (or a code a producer chose); test/core/errors/sluice-error-codes.test.ts fails on a missing one.
 */
export type SluiceErrorCode =
  // exec and http sources
  | 'EXEC_FAILED'
  | 'SPAWN_FAILED'
  | 'TIMEOUT'
  | 'HTTP_STATUS'
  | 'HTTP_FAILED'
  | 'RLIMIT_UNAVAILABLE'
  | 'CGROUP_UNAVAILABLE'
  | 'LIMIT_UNAVAILABLE'
  | 'LIMIT_EXCEEDED'
  | 'TTY_UNAVAILABLE'
  // streams and their operators
  | 'STREAM_SEQUENCE'
  | 'STREAM_STALLED'
  | 'STREAM_CANCELLED'
  | 'STREAM_CONSUMED'
  | 'STREAM_FAILED'
  | 'CANCELLED'
  | 'BUFFER_OVERFLOW'
  | 'DEMAND_IGNORED'
  // the kernel: frames, hostcalls, tools, the scheduler
  | 'INVALID_FRAME'
  | 'INVALID_REQUEST'
  | 'INVALID_MESSAGE'
  | 'INVALID_ARGUMENTS'
  | 'UNKNOWN_TOOL'
  | 'TOOL_FAILED'
  | 'HOSTCALL_FAILED'
  | 'UNSUPPORTED'
  | 'UNSCRIPTED'
  | 'NO_DELIVERY'
  // run stores, the web page, MCP, optional peers
  | 'OWNER_LOST'
  | 'RUN_NOT_FOUND'
  | 'RUN_EXISTS'
  | 'RUN_STORE_FAILED'
  | 'RUN_LIMIT'
  | 'MCP_TOOL_ERROR'
  | 'MCP_REQUEST_FAILED'
  | 'PEER_MISSING'
  | (string & {});

/** Options accepted by every sluice error constructor. */
export interface SluiceErrorOptions<I = unknown> {
  cause?: unknown;
  /** Structured details about the failure (a result, a frame, the sequence numbers involved…). */
  info?: I;
}

/**
 * The base class of every error sluice raises: a stable `code`, a `message`, `cause` and `info`.
 * Recognise one with {@link isSluiceError}, which works across realms and the ESM and CommonJS builds.
 *
 * @example
 * ```ts
 * import { SluiceError, isSluiceError } from 'sluice';
 * try {
 *   throw new SluiceError('TIMEOUT', 'Command timed out after 100ms');
 * } catch (error) {
 *   if (isSluiceError(error, 'TIMEOUT')) console.log(error.code); // 'TIMEOUT'
 * }
 * ```
 */
export class SluiceError<I = unknown> extends Error {
  /** The stable, machine-readable error code. */
  readonly code: SluiceErrorCode;
  /** Structured details about the failure. */
  readonly info: I | undefined;

  constructor(code: SluiceErrorCode, message: string, options: SluiceErrorOptions<I> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.info = options.info;
    Object.defineProperty(this, BRAND, { value: true, enumerable: false });
  }

  override get name(): string {
    return 'SluiceError';
  }
}

/**
 * Whether `value` is a {@link SluiceError} (optionally with the given `code`), in any realm and
 * from either the ESM or the CommonJS build.
 *
 * @example
 * ```ts
 * if (isSluiceError(error, 'STREAM_SEQUENCE')) console.error(error.message);
 * ```
 */
export function isSluiceError(value: unknown, code?: SluiceErrorCode): value is SluiceError {
  if (typeof value !== 'object' || value === null) return false;
  if ((value as Record<symbol, unknown>)[BRAND] !== true) return false;
  return code === undefined || (value as SluiceError).code === code;
}
