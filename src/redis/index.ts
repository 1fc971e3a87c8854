export * from './redis-run-store.js';
export * from './run-keys.js';
export * from './start-worker.js';
export * from './submit-job.js';
