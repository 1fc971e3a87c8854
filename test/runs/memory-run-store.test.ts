import { describe } from 'vitest';
import { MemoryRunStore } from '../../src/runs/memory-run-store.js';
import { runStoreContract } from './run-store-contract.js';

let runs = 0;
describe('MemoryRunStore', () => {
  runStoreContract({
    store: ({ maxEvents }) => new MemoryRunStore({ maxEvents }),
    runId: () => `run-${++runs}`,
  });
});
