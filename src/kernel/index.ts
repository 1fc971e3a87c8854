export * from './bridge/index.js';
export * from './host/index.js';
export * from './protocol/index.js';
export * from './scheduler/index.js';
export * from './supervisor/index.js';
export * from './tools/index.js';
