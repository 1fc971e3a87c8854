/**
 * A command submitted to the worker pool ({@link submitRun}): what a worker runs through `exec`
 * and publishes as run `runId`.
 */
export interface RunJob {
  readonly runId: string;
  readonly file: string;
  readonly args: readonly string[];
  /** The working directory on the worker. */
  readonly cwd?: string;
  /** `exec`'s `timeoutMs` (`0`: none). */
  readonly timeoutMs?: number;
  /** The run's own retention (the worker's store's by default): see `RedisRunStoreOptions`. */
  readonly maxEvents?: number;
  readonly maxBytes?: number;
  readonly retainMs?: number;
  /**
   * The trace context the job was submitted in (W3C `traceparent`, `tracestate`), set by
   * {@link submitRun} when a span was active: the worker's span of the run is its child
   * (docs/scaling.md, "Tracing").
   */
  readonly traceparent?: string;
  readonly tracestate?: string;
}
