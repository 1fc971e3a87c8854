import type { HostStream } from './host-stream.js';

interface Entry {
  readonly extensionId: string;
  readonly callId: string;
  stream: HostStream | undefined;
}

/**
 * The host's calls in flight, keyed by **(extensionId, callId)**: two extensions may use the
 * same call id without seeing each other's calls (seed 002, edge case 5). A call is in flight
 * from its request until its last outcome is enqueued; a streaming one also holds its
 * {@link HostStream}. Iteration is oldest first. (Internal to the host.)
 *
 * @example
 * ```ts
 * const calls = new CallRegistry();
 * calls.add('ext-a', 'hc-1');
 * calls.has('ext-b', 'hc-1'); // false
 * ```
 */
export class CallRegistry {
  readonly #entries = new Map<string, Entry>();

  /** Whether `callId` of `extensionId` is in flight. */
  has(extensionId: string, callId: string): boolean {
    return this.#entries.has(key(extensionId, callId));
  }

  /** Marks a call in flight. */
  add(extensionId: string, callId: string): void {
    this.#entries.set(key(extensionId, callId), { extensionId, callId, stream: undefined });
  }

  /** Attaches the stream of a call in flight. */
  attach(stream: HostStream): void {
    const entry = this.#entries.get(key(stream.extensionId, stream.callId));
    if (entry !== undefined) entry.stream = stream;
  }

  /** Forgets a call (its last outcome is enqueued). */
  delete(extensionId: string, callId: string): void {
    this.#entries.delete(key(extensionId, callId));
  }

  /** The live stream of `callId` of `extensionId`, if any. */
  stream(extensionId: string, callId: string): HostStream | undefined {
    return this.#entries.get(key(extensionId, callId))?.stream;
  }

  /** The live streams, oldest first; only those of `extensionId` when given. */
  streams(extensionId?: string): HostStream[] {
    const streams: HostStream[] = [];
    for (const entry of this.#entries.values()) {
      if (entry.stream !== undefined && (extensionId === undefined || entry.extensionId === extensionId)) {
        streams.push(entry.stream);
      }
    }
    return streams;
  }
}

/** A collision-free composite key: the extension id's length first. */
function key(extensionId: string, callId: string): string {
  return `${extensionId.length}:${extensionId}:${callId}`;
}
