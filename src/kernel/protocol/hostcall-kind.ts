import { z } from 'zod';

/**
 * The kinds of hostcall an extension can make. Only `exec` and `http` support streaming; the
 * others ignore `stream: true` and answer with a single outcome.
 */
export const hostcallKindSchema = z.enum(['exec', 'http', 'tool', 'session', 'events', 'ui'], {
  error: "must be one of 'exec', 'http', 'tool', 'session', 'events', 'ui'",
});

/** One of `exec`, `http`, `tool`, `session`, `events`, `ui`. */
export type HostcallKind = z.infer<typeof hostcallKindSchema>;
