export { fromRunStore } from './follow-run.js';
export * from './memory-run-store.js';
export * from './run-failure.js';
export * from './run-record.js';
export * from './run-store.js';
export * from './sse/run-sse-endpoint.js';
export { type ToRunStoreOptions, toRunStore } from './to-run-store.js';
