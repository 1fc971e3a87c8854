export * from './macrotask.js';
export * from './macrotask-scheduler.js';
