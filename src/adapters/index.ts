export type { SseSink } from '../sse/sse-sink.js';
export * from './from-async-iterable.js';
export * from './from-readable-stream.js';
export type { IgnoredDemandPolicy, WarnLogger } from './ignored-demand.js';
export * from './on-chunk.js';
export { type SseAttachResult, SseStream } from './sse/sse-stream.js';
export * from './to-async-iterable.js';
export * from './to-readable-stream.js';
export * from './to-server-sent-events.js';
