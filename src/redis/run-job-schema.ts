import { z } from 'zod';
import { MAX_DELAY_MS } from '../core/max-delay-ms.js';

/** The shape of a {@link RunJob} as it arrives from Redis (checked: it comes from outside). Internal. */
export const runJobSchema = z.object({
  runId: z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/),
  file: z.string().min(1),
  args: z.array(z.string()),
  cwd: z.string().optional(),
  timeoutMs: z.number().int().nonnegative().max(MAX_DELAY_MS).optional(),
  maxEvents: z.number().int().positive().optional(),
  maxBytes: z.number().int().positive().optional(),
  retainMs: z.number().int().positive().optional(),
  // The submitter's trace, best effort: a value that is not a string of at most 512 characters is
  // dropped (the job runs, outside that trace); a traceparent that does not parse is ignored where
  // it is used.
  traceparent: z.string().max(512).optional().catch(undefined),
  tracestate: z.string().max(512).optional().catch(undefined),
});
