export * from './check-sequence.js';
export * from './sequenced.js';
