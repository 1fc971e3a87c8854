export * from './redis-run-store.js';
export * from './run-keys.js';
