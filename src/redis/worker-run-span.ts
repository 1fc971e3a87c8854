import type { ChunkEvent } from '../core/chunk.js';
import { type RunSpan, type SpanEndDetails, type SpanEndReason, startRunSpan } from '../trace/index.js';
import { errorTypeOf } from '../trace/run-span.js';
import type { Job } from './submit-job.js';

/**
 * The span of one job a worker runs (kind consumer, `process <queue>` as OpenTelemetry's messaging
 * conventions name it). Its parent is the trace context the job was submitted in — one job, one
 * run: the run is the submitter's work, so it belongs in the submitter's trace, as a child process
 * does (docs/scaling.md, "Tracing"); a job submitted outside any trace gets the worker's active
 * context. The run's `exec` span is its child, and the run stores its context for followers.
 */
export function startWorkerRunSpan(queue: string, group: string, entryId: string, job: Job): RunSpan {
  const { traceparent, tracestate } = job;
  const parent =
    traceparent === undefined ? undefined : { traceparent, ...(tracestate ? { tracestate } : {}) };
  return startRunSpan(
    'worker',
    `process ${queue}`,
    {
      'messaging.operation.type': 'process',
      'messaging.destination.name': queue,
      'messaging.consumer.group.name': group,
      'messaging.message.id': entryId,
      'sluice.run.id': job.runId,
    },
    { spanKind: 'consumer', ...(parent === undefined ? {} : { parent }) },
  );
}

/**
 * Ends a worker's job span with the run's end: its final event (`exit` with the exit code, or the
 * `end` reason: a stall, a cancel) or its failure.
 */
export function endWorkerRunSpan(
  span: RunSpan,
  end: ChunkEvent<unknown> | { readonly error: unknown },
): void {
  if ('error' in end) {
    const { error } = end;
    span.end('error', {
      errorType: errorTypeOf(error),
      message: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  const content = end.content as {
    exitCode?: number | null;
    signal?: string | null;
    timedOut?: boolean;
  } | null;
  if (end.kind === 'exit') {
    span.end(...exitEnd(content));
    return;
  }
  const why = String(end.metadata?.reason ?? end.kind);
  if (why === 'stalled')
    span.end('stall', { errorType: 'stall', attributes: { 'sluice.end_event_reason': why } });
  else span.end('cancel', { attributes: { 'sluice.end_event_reason': why } });
}

/** An exit's reason and status, as `exec`'s own span has them: an error unless it exited 0. */
function exitEnd(
  content: { exitCode?: number | null; signal?: string | null; timedOut?: boolean } | null,
): [SpanEndReason, SpanEndDetails] {
  const attributes = { 'process.exit.code': content?.exitCode ?? undefined };
  if (content?.timedOut === true)
    return ['timeout', { attributes, errorType: 'timeout', message: 'timed out' }];
  if (content?.signal) {
    const { signal } = content;
    return ['signal', { attributes, errorType: signal, message: `killed by ${signal}` }];
  }
  const code = content?.exitCode;
  if (code !== 0 && code !== undefined && code !== null)
    return ['exit', { attributes, errorType: String(code), message: `exit code ${code}` }];
  return ['exit', { attributes }];
}
