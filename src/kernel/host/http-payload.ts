import { z } from 'zod';
import { streamFieldsSchema } from '../protocol/stream-options.js';

/**
 * The payload of an `http` hostcall (snake_case):
 * `{ url, method?, headers?, body?, timeout_ms?, lines?, stream?, buffer_size?, stall_timeout_ms? }`.
 * `lines: true` streams the body as UTF-8 lines (each with its `\n`); otherwise each chunk is
 * the decoded text of one read.
 */
export interface HttpPayload {
  readonly url: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeout_ms?: number;
  readonly lines?: boolean;
  readonly stream?: boolean;
  readonly buffer_size?: number;
  readonly stall_timeout_ms?: number;
}

/** The zod schema of an {@link HttpPayload}; `url` must be an absolute http(s) URL. */
export const httpPayloadSchema: z.ZodType<HttpPayload, unknown> = z.strictObject(
  {
    ...streamFieldsSchema.shape,
    url: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
    method: z
      .string({ error: 'must be an HTTP method' })
      .regex(/^[A-Za-z]+$/, { error: 'must be an HTTP method' })
      .optional(),
    headers: z
      .record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object' })
      .optional(),
    body: z.string({ error: 'must be a string' }).optional(),
    timeout_ms: z
      .number({ error: 'must be a non-negative integer' })
      .int({ error: 'must be a non-negative integer' })
      .min(0, { error: 'must be a non-negative integer' })
      .optional(),
    lines: z.boolean({ error: 'must be a boolean' }).optional(),
  },
  { error: 'must be an object' },
);
