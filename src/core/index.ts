export * from './chunk.js';
export * from './demand.js';
export * from './errors/invalid-frame-error.js';
export * from './errors/sequence-error.js';
export * from './errors/sluice-error.js';
export * from './operate.js';
