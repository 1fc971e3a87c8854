/**
 * The SSE event id of the `sequence`-th message of run `runId`: `<runId>@<sequence>`. A client
 * that reconnects with it as `Last-Event-ID` is served the run's messages after that sequence,
 * by whichever instance reaches the run store (docs/mcp.md, "Resuming").
 *
 * @example
 * ```ts
 * formatEventId('mcp:5f0c…:MQ', 41); // 'mcp:5f0c…:MQ@41'
 * ```
 */
export function formatEventId(runId: string, sequence: number): string {
  return `${runId}@${sequence}`;
}

/**
 * The run and sequence an event id of {@link formatEventId} names, or `undefined` for any other
 * text (a client's `Last-Event-ID` is outside input).
 *
 * @example
 * ```ts
 * parseEventId('mcp:5f0c…:MQ@41'); // { runId: 'mcp:5f0c…:MQ', sequence: 41 }
 * parseEventId('41'); // undefined
 * ```
 */
export function parseEventId(eventId: string): { runId: string; sequence: number } | undefined {
  const at = eventId.lastIndexOf('@');
  if (at <= 0) return undefined;
  const digits = eventId.slice(at + 1);
  if (!/^\d{1,15}$/.test(digits)) return undefined;
  return { runId: eventId.slice(0, at), sequence: Number(digits) };
}
