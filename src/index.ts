/**
 * sluice — long-running tool calls as RxJS Observables of sequenced chunks.
 *
 * The root entry point holds the chunk model, the errors, the demand protocol, and re-exports
 * the sources, operators and adapters. The kernel (`sluice/kernel`) and the test kit
 * (`sluice/testing`) are separate entry points.
 */
export * from './adapters/index.js';
export * from './core/index.js';
export * from './operators/index.js';
export * from './runs/index.js';
export * from './sources/exec/exec-error.js';
export * from './sources/http/http-error.js';
export * from './sources/index.js';
