import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The tracing setup a user loads into the `sluice` CLI with `node --import` (the real OpenTelemetry
 * SDK): every ended span is appended as a JSON line to the file named by `SLUICE_TEST_SPANS`.
 */
export const SPAN_FILE_SETUP = fileURLToPath(new URL('../fixtures/otel-span-file.mjs', import.meta.url));

/** One span as test/fixtures/otel-span-file.mjs writes it. */
export interface FileSpan {
  readonly name: string;
  /** OpenTelemetry's `SpanKind`: 0 internal, 1 server, 2 client, 3 producer, 4 consumer. */
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly traceState: string | undefined;
  readonly parentSpanId: string | undefined;
  readonly attributes: Record<string, unknown>;
  readonly events: { name: string; attributes: Record<string, unknown> | undefined }[];
  readonly links: { traceId: string; spanId: string }[];
  readonly status: { code: number; message?: string };
}

/** A fresh path for a span file (the file itself is created by the first span). */
export function newSpanFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'sluice-spans-')), 'spans.jsonl');
}

/** The spans written to `file` so far (none when no span has ended yet). */
export function readSpanFile(file: string): FileSpan[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as FileSpan);
}
