import type { TraceCarrier } from './trace-carrier.js';

/** An attribute value OpenTelemetry takes (`undefined` ones are left out). */
export type TraceAttributeValue = string | number | boolean | readonly string[] | undefined;

/** Attributes of a span or span event. */
export type TraceAttributes = Readonly<Record<string, TraceAttributeValue>>;

/**
 * How a run ended, the span's `sluice.end_reason` and the `sluice.runs.ended` metric's reason:
 * the child exited by itself (`exit`, whatever its code) or by a signal sluice did not send
 * (`signal`); sluice killed it for `timeout` or a `stall`; the consumer left (`cancel`:
 * unsubscribe or an `AbortSignal`); it never started (`spawn_failure`); the run completed
 * (`complete`, a run with no exit code: an HTTP exchange); or it failed otherwise (`error`).
 */
export type RunEndReason =
  | 'exit'
  | 'signal'
  | 'timeout'
  | 'stall'
  | 'cancel'
  | 'spawn_failure'
  | 'complete'
  | 'error';

/** What {@link RunSpan.end} records besides the reason. */
export interface RunEndDetails {
  /** The `error.type` of a failed run: sets the span's status to error. Absent: status unset. */
  readonly errorType?: string;
  /** The status description of a failed run. */
  readonly message?: string;
  /** Lines (events) delivered: `sluice.lines`, and the `sluice.lines` metric. */
  readonly lines?: number;
  /** Bytes per stream (`stdout`, `stderr`, `body`): `sluice.<stream>.bytes`, and the `sluice.bytes` metric. */
  readonly bytes?: Readonly<Record<string, number>>;
  /** How long demand held the producer paused: `sluice.paused_ms`, and the `sluice.paused_time` metric. */
  readonly pausedMs?: number;
  /** Any other attributes to set at the end (`process.exit.code`, `http.response.status_code`, …). */
  readonly attributes?: TraceAttributes;
}

/**
 * The span of one run, and its metrics: {@link startRunSpan} gives it. Every method is safe to
 * call in any order and more than once; after {@link RunSpan.end} only {@link RunSpan.groupGone}
 * still counts (its metric). When no SDK listens it is an object that does nothing.
 */
export interface RunSpan {
  /** Whether an SDK records this span: attributes worth computing only for it are computed only then. */
  readonly recording: boolean;
  /**
   * `false` when no SDK listens to this run (no tracer or meter provider registered, or no API):
   * every method then does nothing, and the run skips the work only a span or a metric uses
   * (timing demand's pauses, watching the kill, telling a stall from a cancel).
   */
  readonly observed: boolean;
  /** This span's context to hand to the child (`TRACEPARENT`), a header or `_meta`; `undefined` without a trace. */
  readonly carrier: TraceCarrier | undefined;
  /** Sets attributes (`undefined` values are skipped). */
  add(attributes: TraceAttributes): void;
  /** Adds a span event now. */
  event(name: string, attributes?: TraceAttributes): void;
  /** Ends the span once: the reason, the counts, the status; records the run's metrics. */
  end(reason: RunEndReason, details?: RunEndDetails): void;
  /** The run's process group (or cgroup) is gone `killMs` after sluice first killed it: the `sluice.group_gone` event and the `sluice.kill.duration` metric. */
  groupGone(killMs: number): void;
  /** Calls `fn` with this span active (children it starts become this span's children). */
  within<T>(fn: () => T): T;
}
