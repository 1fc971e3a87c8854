export * from './from-async-iterable.js';
export * from './from-readable-stream.js';
export type { IgnoredDemandPolicy, WarnLogger } from './ignored-demand.js';
export * from './on-chunk.js';
export * from './sse/index.js';
export * from './to-async-iterable.js';
export * from './to-readable-stream.js';
export * from './to-server-sent-events.js';
