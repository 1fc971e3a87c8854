export type { SseSink } from '../runs/sse/sse-sink.js';
export { type SseAttachResult, SseStream } from '../runs/sse/sse-stream.js';
export * from '../runs/sse/to-server-sent-events.js';
export * from './from-async-iterable.js';
export * from './from-readable-stream.js';
export type { IgnoredDemandOptions, IgnoredDemandPolicy, WarnLogger } from './ignored-demand.js';
export * from './on-chunk.js';
export * from './to-async-iterable.js';
export * from './to-readable-stream.js';
