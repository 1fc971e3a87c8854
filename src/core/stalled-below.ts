import type { StallMark } from './mark-stalled.js';

const STALLED = Symbol.for('sluice.stalled');

/** How far the walk goes (a chain this long is a cycle). */
const MAX_HOPS = 1000;

/**
 * The {@link StallMark} a stall detector left on `subscriber` or on a subscriber below it (the
 * RxJS subscriber chain, `destination` after `destination`, as src/core/subscriber-chain.ts
 * describes it), or `undefined` when the unsubscribe was not for a stall. Asked once, when a
 * producer is cancelled.
 *
 * @example
 * ```ts
 * const reason = stalledBelow(subscriber) === undefined ? 'cancel' : 'stall';
 * ```
 */
export function stalledBelow(subscriber: unknown): StallMark | undefined {
  let node = subscriber as { [STALLED]?: StallMark; destination?: unknown } | null | undefined;
  for (let hops = 0; hops < MAX_HOPS && typeof node === 'object' && node !== null; hops += 1) {
    const mark = node[STALLED];
    if (mark !== undefined) return mark;
    node = node.destination as typeof node;
  }
  return undefined;
}
