import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A metric reader that only answers `collect()` (the SDK's pull side). */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The real OpenTelemetry SDK, registered globally for one test file. */
export interface TestTracing {
  /** The finished spans so far. */
  spans(): ReadableSpan[];
  /** Resolves with the first finished span `match` accepts (already finished or still to come). */
  ended(match: (span: ReadableSpan) => boolean): Promise<ReadableSpan>;
  /** The metrics collected now. */
  collect(): Promise<ResourceMetrics>;
  /** Forgets the finished spans. */
  reset(): void;
  /** Unregisters everything. */
  shutdown(): Promise<void>;
}

/**
 * Registers a `BasicTracerProvider` exporting to an `InMemorySpanExporter`, the
 * `AsyncLocalStorageContextManager` (so that active spans are parents) and a `MeterProvider`
 * with a reader the test collects from.
 */
export function registerTestTracing(): TestTracing {
  const exporter = new InMemorySpanExporter();
  const waiters: Array<{ match: (span: ReadableSpan) => boolean; resolve: (span: ReadableSpan) => void }> =
    [];
  const notify: SpanProcessor = {
    onStart: () => {},
    onEnd: (span) => {
      for (const waiter of [...waiters]) {
        if (!waiter.match(span)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(span);
      }
    },
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), notify] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    ended: (match) => {
      const found = exporter.getFinishedSpans().find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    collect: async () => (await reader.collect()).resourceMetrics,
    reset: () => exporter.reset(),
    shutdown: async () => {
      trace.disable();
      context.disable();
      metrics.disable();
      await provider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The span named `name`, once it ended. */
export const named = (name: string) => (span: ReadableSpan) => span.name === name;
