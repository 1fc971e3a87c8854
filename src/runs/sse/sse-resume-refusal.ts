/**
 * What a resume decision needs to know about a run: whether it has ended, whether it failed, and
 * the sequence its next event would have (a `RunInfo`, or a `ReplayLog`, has these).
 */
export interface SseResumeState {
  readonly ended: boolean;
  readonly failed: boolean;
  readonly next: number;
}

/**
 * Whether a client that has seen up to `lastEventId` (`undefined`: nothing yet) is refused rather
 * than streamed to: `204` when the run ended with a final event it already has (nothing follows:
 * an `EventSource` stops reconnecting), `400` when `lastEventId` is ahead of a run that may still
 * go on. `undefined`: stream the events after `lastEventId`. `what` names the run in messages.
 * See `docs/sse.md`.
 */
export function sseResumeRefusal(
  state: SseResumeState,
  lastEventId: number | undefined,
  what: string,
): { readonly status: 204 | 400; readonly message: string } | undefined {
  const cursor = lastEventId === undefined ? 0 : lastEventId + 1;
  if (state.ended && !state.failed && cursor >= state.next) {
    return { status: 204, message: `${capitalize(what)} has ended; nothing follows this event` };
  }
  if (cursor > state.next) {
    return {
      status: 400,
      message: `Last-Event-ID ${lastEventId} is ahead of ${what} (its last event is ${state.next - 1})`,
    };
  }
  return undefined;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
