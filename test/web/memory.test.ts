import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFetchStream } from '../../src/browser/from-fetch-stream.js';
import { exec } from '../../src/sources/exec.js';
import type { RegistryEntry } from '../../src/web/registry-entry.js';
import { RunRegistry } from '../../src/web/run-registry.js';
import { startWebServer } from '../../src/web/start-web-server.js';
import { pollUntil } from '../support/processes.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const MB = 1024 * 1024;
const scratch = mkdtempSync(join(tmpdir(), 'sluice-web-memory-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// 50,000 lines of about 60 bytes.
const LINES = ['-f', 'line %g of a run that writes fifty thousand lines, padded....', '1', '50000'];

async function runToEnd(registry: RunRegistry): Promise<RegistryEntry> {
  const run = registry.start(exec('seq', LINES, { reject: false }), { command: 'seq' });
  expect(await pollUntil(() => run.endedAt !== undefined, 30_000)).toBe(true);
  return run;
}

describe('sluice/web memory', () => {
  it('20 finished runs of 50,000 lines do not stay in memory (and do while retained)', async () => {
    const warmUp = new RunRegistry({ retainMs: 0, logDir: scratch }); // loads execa, zod, …
    await runToEnd(warmUp);
    warmUp.close();
    const before = heapAfterGc();
    const held = new RunRegistry({ maxFinishedRuns: 20, logDir: scratch });
    for (let index = 0; index < 20; index += 1) await runToEnd(held);
    const whileHeld = heapAfterGc() - before;
    expect(held.size).toBe(20);
    expect(whileHeld).toBeGreaterThan(40 * MB); // what the replay logs of 20 retained runs weigh
    held.close();

    const freeing = new RunRegistry({ retainMs: 0, logDir: scratch });
    // (A FinalizationRegistry, not WeakRefs: V8 keeps a WeakRef's target alive until the job ends.)
    const collected = new Set<number>();
    const finalization = new FinalizationRegistry<number>((index) => collected.add(index));
    // In a function of its own, so that no frame of this test still holds the last run. The
    // run's log lives in the registry's memory store: the heap figure below says it is gone too.
    const watch = async (index: number) => finalization.register(await runToEnd(freeing), index);
    for (let index = 0; index < 20; index += 1) await watch(index);
    expect(await pollUntil(() => freeing.size === 0, 10_000)).toBe(true);
    await pollUntil(() => {
      gc();
      return collected.size === 20;
    }, 10_000);
    const after = heapAfterGc() - before;
    expect(after).toBeLessThan(15 * MB);
    expect(collected.size).toBe(20); // every run was garbage-collected
    freeing.close();
    console.log(
      `[memory] 20 runs × 50,000 lines: heap +${(whileHeld / MB).toFixed(1)} MB while retained, ${(after / MB).toFixed(1)} MB once freed`,
    );
  }, 240_000);

  it('200 concurrent viewers of one run each get every event, exactly once, from one process', async () => {
    const gate = join(scratch, 'gate');
    const registry = new RunRegistry({ logDir: false });
    const run = registry.start(
      exec('sh', ['-c', 'seq 1 2000; while [ ! -e "$1" ]; do sleep 0.02; done; seq 2001 10000', 'sh', gate], {
        reject: false,
      }),
      { command: 'seq in two parts' },
    );
    const server = await startWebServer({ registry });
    const before = heapAfterGc();
    const url = `${server.origin}/runs/${run.id}/events`;
    const viewers = Array.from({ length: 200 }, () =>
      lastValueFrom(fromFetchStream(url, { headers: { 'x-sluice-token': server.token } }).pipe(toArray())),
    );
    expect(await pollUntil(() => run.viewers === 200, 30_000)).toBe(true);
    const during = heapAfterGc() - before;
    writeFileSync(gate, '');
    const results = await Promise.all(viewers);
    for (const events of results) {
      expect(events.length).toBe(10_001); // checked contiguous from 0 by fromFetchStream
      expect(events[9_999]?.content).toBe('10000\n');
      expect(events.at(-1)?.kind).toBe('exit');
    }
    expect(during).toBeLessThan(100 * MB);
    await server.close();
    registry.close();
    console.log(`[memory] 200 viewers attached: heap +${(during / MB).toFixed(1)} MB`);
  }, 240_000);
});
