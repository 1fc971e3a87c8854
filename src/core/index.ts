export * from './aggregate-demand.js';
export * from './chunk.js';
export { type Demand, Valve } from './demand.js';
export * from './errors/buffer-overflow-error.js';
export * from './errors/cancelled-error.js';
export * from './errors/invalid-frame-error.js';
export * from './errors/invalid-request-error.js';
export * from './errors/owner-lost-error.js';
export * from './errors/peer-missing-error.js';
export * from './errors/run-store-error.js';
export {
  isSequenceError,
  SequenceError,
  type SequenceErrorInfo,
  type SequenceRule,
} from './errors/sequence-error.js';
export * from './errors/sluice-error.js';
export * from './errors/spawn-error.js';
export { demandOf, subscribeWithDemand } from './subscriber-chain.js';
