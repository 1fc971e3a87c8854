import type { ExecRlimits } from '../../sources/exec/process-port.js';
import type { ExecResult } from '../../sources/exec.js';
import type { HostcallPayload } from '../protocol/hostcall-request.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { Bridge } from './bridge.js';
import type { HostcallStream } from './hostcall-stream.js';

/**
 * Options of `api.exec`, in TypeScript's names; the bridge writes them into the payload in the
 * wire's (`bufferSize` → `buffer_size`, docs/protocol.md, "Names on the wire").
 */
export interface ExecCallOptions {
  readonly stream?: boolean;
  /** Capacity of the stream's bounded channel, in chunks. Default 16. */
  readonly bufferSize?: number;
  /** How long a full channel may wait for the consumer; `0` disables it. Default 30 000. */
  readonly stallTimeoutMs?: number;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Resource limits of the child, as the `exec` source's `rlimits`. */
  readonly rlimits?: ExecRlimits;
}

/** Options of `api.http`, in TypeScript's names (see {@link ExecCallOptions}). */
export interface HttpCallOptions {
  readonly stream?: boolean;
  readonly bufferSize?: number;
  readonly stallTimeoutMs?: number;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs?: number;
  readonly lines?: boolean;
}

/**
 * What a non-streaming `api.exec` resolves with; a streaming one ends with the same fields less
 * `stdout` and `stderr` as its final chunk (after an exit 0). A non-zero exit or a signal is
 * still a result: read `exitCode`.
 */
export interface ExecCallResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly truncated: boolean;
  readonly rlimitHit: ExecResult['rlimitHit'];
  readonly durationMs: number;
}

/** What a non-streaming `api.http` resolves with; a streaming one's final chunk is the same less `body`. */
export interface HttpCallResult {
  readonly status: number;
  readonly bytes: number;
  readonly durationMs: number;
  readonly body: string;
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
  ): Promise<ExecCallResult>;
  http(url: string, options: HttpCallOptions & { readonly stream: true }): HostcallStream;
  http(url: string, options?: HttpCallOptions): Promise<HttpCallResult>;
  /** Cancels a stream (docs/protocol.md, "Cancel"). */
  cancelStream(callId: string): void;
}

/**
 * The API an extension sees, on a {@link Bridge} (docs/protocol.md). With `stream: true`, `exec`
 * and `http` return a {@link HostcallStream} at once (so `await` on it works too); without, a
 * promise of the result. `args` may be left out.
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
