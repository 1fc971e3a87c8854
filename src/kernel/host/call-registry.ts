import { LastHitMap } from '../last-hit-map.js';
import type { HostStream } from './host.js';

interface Entry {
  readonly extensionId: string;
  readonly callId: string;
  stream: HostStream | undefined;
}

/**
 * The host's calls in flight, from request to last outcome, keyed by (extensionId, callId); a
 * streaming one also holds its {@link HostStream}. Iteration is oldest first.
 */
export class CallRegistry {
  /** Every call in flight, oldest first (for iteration). */
  readonly #entries = new Set<Entry>();
  /** The same entries by extension id, then call id: a lookup (a pull per chunk) builds no key string. */
  readonly #index = new LastHitMap<string, LastHitMap<string, Entry>>();

  has(extensionId: string, callId: string): boolean {
    return this.#find(extensionId, callId) !== undefined;
  }

  add(extensionId: string, callId: string): void {
    const existing = this.#find(extensionId, callId);
    if (existing !== undefined) {
      existing.stream = undefined;
      return;
    }
    const entry: Entry = { extensionId, callId, stream: undefined };
    this.#entries.add(entry);
    let calls = this.#index.get(extensionId);
    if (calls === undefined) {
      calls = new LastHitMap();
      this.#index.set(extensionId, calls);
    }
    calls.set(callId, entry);
  }

  attach(stream: HostStream): void {
    const entry = this.#find(stream.extensionId, stream.callId);
    if (entry !== undefined) entry.stream = stream;
  }

  /** Forgets a call (its last outcome is enqueued). */
  delete(extensionId: string, callId: string): void {
    const calls = this.#index.get(extensionId);
    const entry = calls?.get(callId);
    if (calls === undefined || entry === undefined) return;
    calls.delete(callId);
    if (calls.size === 0) this.#index.delete(extensionId);
    this.#entries.delete(entry);
  }

  stream(extensionId: string, callId: string): HostStream | undefined {
    return this.#find(extensionId, callId)?.stream;
  }

  /** The live streams, oldest first; only those of `extensionId` when given. */
  streams(extensionId?: string): HostStream[] {
    const streams: HostStream[] = [];
    for (const entry of this.#entries) {
      if (entry.stream !== undefined && (extensionId === undefined || entry.extensionId === extensionId)) {
        streams.push(entry.stream);
      }
    }
    return streams;
  }

  #find(extensionId: string, callId: string): Entry | undefined {
    return this.#index.get(extensionId)?.get(callId);
  }
}
