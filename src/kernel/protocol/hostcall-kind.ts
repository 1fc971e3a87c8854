import { z } from 'zod';

/**
 * The kinds of hostcall an extension can make. Only `exec` and `http` support streaming; the
 * others ignore `stream: true` and answer with a single outcome.
 *
 * @example
 * ```ts
 * import { hostcallKindSchema } from 'sluice/kernel';
 * hostcallKindSchema.parse('exec'); // 'exec'
 * hostcallKindSchema.options; // ['exec', 'http', 'tool', 'session', 'events', 'ui']
 * ```
 */
export const hostcallKindSchema = z.enum(['exec', 'http', 'tool', 'session', 'events', 'ui'], {
  error: "must be one of 'exec', 'http', 'tool', 'session', 'events', 'ui'",
});

/**
 * One of `exec`, `http`, `tool`, `session`, `events`, `ui`.
 *
 * @example
 * ```ts
 * import type { HostcallKind } from 'sluice/kernel';
 * const kind: HostcallKind = 'http';
 * ```
 */
export type HostcallKind = z.infer<typeof hostcallKindSchema>;
