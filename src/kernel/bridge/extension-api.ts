import type { ExecPayloadRlimits } from '../host/exec-payload.js';
import type { HostcallPayload } from '../protocol/hostcall-request.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { Bridge } from './bridge.js';
import type { HostcallStream } from './hostcall-stream.js';

/** Options of `api.exec` (snake_case, as they go into the payload). */
export interface ExecCallOptions {
  readonly stream?: boolean;
  readonly buffer_size?: number;
  readonly stall_timeout_ms?: number;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeout_ms?: number;
  /** Resource limits of the child (`cpu_s`, `as_bytes`, `fsize_bytes`, `nofile`); see `ExecPayload`. */
  readonly rlimits?: ExecPayloadRlimits;
}

/** Options of `api.http` (snake_case, as they go into the payload). */
export interface HttpCallOptions {
  readonly stream?: boolean;
  readonly buffer_size?: number;
  readonly stall_timeout_ms?: number;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeout_ms?: number;
  readonly lines?: boolean;
}

/** The extension-facing API of the hostcall protocol (see {@link createExtensionApi}). */
export interface ExtensionApi {
  exec(cmd: string, options: ExecCallOptions & { readonly stream: true }): HostcallStream;
  exec(
    cmd: string,
    args: readonly string[],
    options: ExecCallOptions & { readonly stream: true },
  ): HostcallStream;
  exec(
    cmd: string,
    args?: readonly string[] | ExecCallOptions,
    options?: ExecCallOptions,
  ): Promise<JsonValue>;
  http(url: string, options: HttpCallOptions & { readonly stream: true }): HostcallStream;
  http(url: string, options?: HttpCallOptions): Promise<JsonValue>;
  /** Cancels a stream (docs/protocol.md, "Cancel"). */
  cancelStream(callId: string): void;
}

/**
 * The API an extension sees, on a {@link Bridge} (docs/protocol.md):
 *
 * - `api.exec(cmd, args?, { stream: true, buffer_size, stall_timeout_ms, cwd, env, timeout_ms, rlimits })`
 *   returns a {@link HostcallStream} at once (so `await api.exec(…, { stream: true })` works
 *   too); without `stream: true` it returns a promise of the result
 *   `{ stdout, stderr, exit_code, … }`, the unchanged path. `args` may be left out.
 * - `api.http(url, { stream: true, … })` likewise (body chunks as strings).
 * - `api.cancelStream(callId)` cancels a stream (`stream.callId`).
 *
 * @example
 * ```ts
 * const api = createExtensionApi(bridge);
 * const stream = await api.exec('tail', ['-f', '/var/log/syslog'], { stream: true });
 * for await (const chunk of stream) console.log('got:', chunk);
 * const result = await api.exec('ls', ['-la']);
 * ```
 */
export function createExtensionApi(bridge: Bridge): ExtensionApi {
  const run = (kind: 'exec' | 'http', payload: Record<string, JsonValue | undefined>) => {
    const clean = Object.fromEntries(
      Object.entries(payload).filter(([, value]) => value !== undefined),
    ) as HostcallPayload;
    return clean.stream === true ? bridge.stream(kind, clean) : bridge.call(kind, clean);
  };
  return {
    exec(cmd: string, args?: readonly string[] | ExecCallOptions, options?: ExecCallOptions) {
      const list = Array.isArray(args) ? (args as readonly string[]) : undefined;
      const rest = (Array.isArray(args) ? options : (args as ExecCallOptions | undefined)) ?? {};
      return run('exec', {
        ...(rest as Record<string, JsonValue>),
        cmd,
        args: list as JsonValue | undefined,
      });
    },
    http(url: string, options?: HttpCallOptions) {
      return run('http', { ...((options ?? {}) as Record<string, JsonValue>), url });
    },
    cancelStream: (callId) => bridge.cancelStream(callId),
  } as ExtensionApi;
}
