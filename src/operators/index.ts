export * from './bounded.js';
export * from './bounded-strategy.js';
export * from './check-sequence.js';
export * from './coalesce.js';
export * from './sequenced.js';
export * from './stall-timeout.js';
export * from './stall-timeout-info.js';
