export * from './redis-run-store.js';
export * from './run-job.js';
export * from './run-keys.js';
export * from './start-run-worker.js';
export * from './submit-run.js';
