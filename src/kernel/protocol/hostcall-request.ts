import { z } from 'zod';
import { InvalidRequestError } from '../../core/errors/invalid-request-error.js';
import { type JsonValue, jsonValueSchema } from './json-value.js';
import { parsePart } from './parse-part.js';
import { streamFieldsSchema } from './stream-options.js';

/**
 * The kinds of hostcall an extension can make. Only `exec` and `http` support streaming; the
 * others ignore `stream: true` and answer with a single outcome.
 */
export const hostcallKindSchema = z.enum(['exec', 'http', 'tool', 'session', 'events', 'ui'], {
  error: "must be one of 'exec', 'http', 'tool', 'session', 'events', 'ui'",
});

/** One of `exec`, `http`, `tool`, `session`, `events`, `ui`. */
export type HostcallKind = z.infer<typeof hostcallKindSchema>;

/**
 * The payload of a hostcall: a JSON object whose fields depend on the kind (exec's `cmd`, …),
 * plus the optional streaming fields (read by `exec` and `http` only; other kinds ignore them).
 */
export type HostcallPayload = { readonly [key: string]: JsonValue } & {
  readonly stream?: boolean;
  readonly buffer_size?: number;
  readonly stall_timeout_ms?: number;
};

/** A hostcall from an extension to the host: `{ callId, kind, payload }`. */
export interface HostcallRequest {
  readonly callId: string;
  readonly kind: HostcallKind;
  readonly payload: HostcallPayload;
}

/** The kinds whose payload carries the streaming fields; the others ignore them (docs/protocol.md, "Opting in"). */
const STREAMING_KINDS: ReadonlySet<string> = new Set(['exec', 'http']);

/**
 * The zod schema of a {@link HostcallRequest}. The streaming fields are checked for `exec` and
 * `http` only; other payload fields are left to each kind.
 */
export const hostcallRequestSchema: z.ZodType<HostcallRequest, unknown> = z
  .strictObject(
    {
      callId: z
        .string({ error: 'must be a non-empty string' })
        .min(1, { error: 'must be a non-empty string' }),
      kind: hostcallKindSchema,
      payload: z
        .looseObject({}, { error: 'must be an object' })
        .pipe(jsonValueSchema as z.ZodType<JsonValue, any>),
    },
    { error: 'must be an object' },
  )
  .superRefine((request, context) => {
    if (!STREAMING_KINDS.has(request.kind)) return;
    const fields = streamFieldsSchema.safeParse(request.payload);
    for (const issue of fields.success ? [] : fields.error.issues) {
      context.addIssue({ code: 'custom', message: issue.message, path: ['payload', ...issue.path] });
    }
  }) as unknown as z.ZodType<HostcallRequest, unknown>;

/** Validates a hostcall request, or throws an `InvalidRequestError` naming the field. */
export function parseHostcallRequest(input: unknown): HostcallRequest {
  return parsePart(hostcallRequestSchema, input, '', InvalidRequestError);
}
