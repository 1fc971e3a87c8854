import { afterAll, beforeAll, describe } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { runStoreContract } from '../runs/run-store-contract.js';
import { type RedisServer, redisServerPath, startRedis } from '../support/redis-server.js';

let runs = 0;
describe.skipIf(redisServerPath === undefined)('RedisRunStore (a real redis-server)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.stop());

  runStoreContract({
    store: ({ maxEvents }) =>
      new RedisRunStore({ url: server.url, maxEvents, blockMs: 200, maxBatchEvents: 5 }),
    runId: () => `run-${process.pid}-${++runs}`,
  });
});
