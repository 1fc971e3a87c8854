import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { isOwnerLostError } from '../../src/core/errors/owner-lost-error.js';
import { isRunStoreError } from '../../src/core/errors/run-store-error.js';
import { isSequenceError } from '../../src/core/errors/sequence-error.js';
import { fromRunStore } from '../../src/runs/follow-run.js';
import type { RunStore } from '../../src/runs/run-store.js';
import { chunk } from '../support/chunk.js';

/** What a contract run needs: a fresh store with these bounds, and a unique run id. */
export interface ContractHarness {
  store(options: { maxEvents: number }): RunStore;
  runId(): string;
}

const line = (sequence: number, isFinal = false): ChunkEvent<unknown> =>
  isFinal ? chunk(sequence, { exitCode: 0 }, true, { kind: 'exit' }) : chunk(sequence, `line ${sequence}\n`);

async function writeRun(store: RunStore, runId: string, count: number): Promise<void> {
  const writer = store.openWriter(runId);
  for (let sequence = 0; sequence < count; sequence += 1)
    writer.append(line(sequence, sequence === count - 1));
  await writer.ended;
}

/** The behaviour every RunStore must have, whichever holds the runs. */
export function runStoreContract(harness: ContractHarness): void {
  it('a follower gets every event in order, then completes after the final one', async () => {
    const store = harness.store({ maxEvents: 1000 });
    const runId = harness.runId();
    await writeRun(store, runId, 50);
    const events = await lastValueFrom(fromRunStore(store, runId).pipe(toArray()));
    expect(events.map((event) => event.sequence)).toEqual([...Array(50).keys()]);
    expect(events.at(-1)).toEqual(line(49, true));
    await store.close();
  });

  it('resumes exactly after any sequence', async () => {
    const store = harness.store({ maxEvents: 1000 });
    const runId = harness.runId();
    await writeRun(store, runId, 20);
    for (const after of [-1, 0, 7, 18, 19]) {
      const events = await lastValueFrom(fromRunStore(store, runId, { after }).pipe(toArray()));
      expect(events.map((event) => event.sequence)).toEqual(
        [...Array(19 - after).keys()].map((n) => n + after + 1),
      );
    }
    await store.close();
  });

  it('follows a live run: events appended later arrive, the read ends with the run', async () => {
    const store = harness.store({ maxEvents: 1000 });
    const runId = harness.runId();
    const writer = store.openWriter(runId);
    writer.append(line(0));
    await expect.poll(async () => (await store.info(runId))?.next, { timeout: 5000 }).toBe(1);
    const seen: number[] = [];
    const done = lastValueFrom(fromRunStore(store, runId).pipe(toArray()));
    const first = firstValueFrom(fromRunStore(store, runId));
    expect((await first).sequence).toBe(0);
    for (let sequence = 1; sequence < 5; sequence += 1) writer.append(line(sequence, sequence === 4));
    for (const event of await done) seen.push(event.sequence);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    await writer.ended;
    await store.close();
  });

  it('trimmed history is an explicit gap error, never a silent skip', async () => {
    const store = harness.store({ maxEvents: 10 });
    const runId = harness.runId();
    await writeRun(store, runId, 100);
    const info = await store.info(runId);
    expect(info?.state).toBe('ended');
    expect(info?.next).toBe(100);
    expect(info?.oldest).toBeGreaterThan(0);
    expect(info?.oldest).toBeLessThanOrEqual(90);
    const error = await lastValueFrom(fromRunStore(store, runId, { after: 3 })).catch((e: unknown) => e);
    expect(isSequenceError(error)).toBe(true);
    expect((error as { info: { rule: string; expected: number } }).info).toMatchObject({
      rule: 'gap',
      expected: 4,
    });
    // from the oldest retained event on, the read is whole
    const tail = await lastValueFrom(fromRunStore(store, runId, { after: 94 }).pipe(toArray()));
    expect(tail.map((event) => event.sequence)).toEqual([95, 96, 97, 98, 99]);
    await store.close();
  });

  it("a failed run ends its followers with the run's failure", async () => {
    const store = harness.store({ maxEvents: 1000 });
    const runId = harness.runId();
    const writer = store.openWriter(runId);
    writer.append(line(0));
    writer.fail(Object.assign(new Error('boom'), { name: 'BoomError' }));
    await writer.ended;
    const seen: number[] = [];
    const error = await lastValueFrom(fromRunStore(store, runId)).catch((e: unknown) => e);
    await lastValueFrom(fromRunStore(store, runId)).catch(() => {});
    fromRunStore(store, runId).subscribe({ next: (event) => seen.push(event.sequence), error: () => {} });
    expect((error as Error).message).toBe('boom');
    expect((error as { code: string }).code).toBe('STREAM_FAILED');
    expect((await store.info(runId))?.failure).toEqual({
      code: 'STREAM_FAILED',
      name: 'BoomError',
      message: 'boom',
    });
    await expect.poll(() => seen).toEqual([0]);
    await store.close();
  });

  it('cancel reaches the writer, wherever it is', async () => {
    const store = harness.store({ maxEvents: 1000 });
    const runId = harness.runId();
    const writer = store.openWriter(runId);
    const reasons: string[] = [];
    writer.onCancel((reason) => reasons.push(reason));
    writer.append(line(0));
    await expect.poll(async () => (await store.info(runId))?.next, { timeout: 5000 }).toBe(1);
    await expect
      .poll(() => store.cancel(runId, 'stop it').then(() => reasons), { timeout: 5000 })
      .toContain('stop it');
    writer.append({
      sequence: 1,
      kind: 'end',
      content: null,
      metadata: { reason: 'stop it' },
      isFinal: true,
    });
    await writer.ended;
    expect(await store.cancel(runId)).toBe(false); // already ended
    await store.close();
  });

  it("a cancel's details reach the writer with its reason; the writer's label is in the run's info", async () => {
    const store = harness.store({ maxEvents: 1000 });
    const runId = harness.runId();
    const writer = store.openWriter(runId, { label: 'make -j8' });
    const requests: unknown[] = [];
    writer.onCancel((reason, details) => requests.push({ reason, details }));
    writer.append(line(0));
    await expect.poll(async () => (await store.info(runId))?.next, { timeout: 5000 }).toBe(1);
    const info = await store.info(runId);
    expect(info?.label).toBe('make -j8');
    expect(info?.startedAt).toBeGreaterThan(0);
    await expect
      .poll(() => store.cancel(runId, 'cancelled', { by: 'page' }).then(() => requests), { timeout: 5000 })
      .toContainEqual({ reason: 'cancelled', details: { by: 'page' } });
    writer.append(line(1, true));
    await writer.ended;
    await store.close();
  });

  it('lastRecord: nothing before the first event, then the newest event, the final one, or the failure', async () => {
    const store = harness.store({ maxEvents: 10 });
    const runId = harness.runId();
    const unknown = await store.lastRecord(runId).catch((e: unknown) => e);
    expect(isRunStoreError(unknown, 'RUN_NOT_FOUND')).toBe(true);
    const writer = store.openWriter(runId);
    await expect.poll(() => store.info(runId), { timeout: 5000 }).toBeDefined();
    expect(await store.lastRecord(runId)).toBeUndefined(); // the run exists, with no event yet
    for (let sequence = 0; sequence < 30; sequence += 1) writer.append(line(sequence));
    await expect
      .poll(() => store.lastRecord(runId), { timeout: 5000 })
      .toEqual({ type: 'event', event: line(29) });
    writer.append(line(30, true));
    await writer.ended;
    expect(await store.lastRecord(runId)).toEqual({ type: 'event', event: line(30, true) });
    const failed = harness.runId();
    const failing = store.openWriter(failed);
    failing.append(line(0));
    failing.fail(Object.assign(new Error('boom'), { name: 'BoomError' }));
    await failing.ended;
    expect(await store.lastRecord(failed)).toEqual({
      type: 'failure',
      failure: { code: 'STREAM_FAILED', name: 'BoomError', message: 'boom' },
    });
    expect(store.retainMs).toBeGreaterThan(0);
    await store.close();
  });

  it('info keeps the cancel request a running run got (none before)', async () => {
    const store = harness.store({ maxEvents: 1000 });
    const runId = harness.runId();
    const writer = store.openWriter(runId);
    writer.onCancel(() => {});
    writer.append(line(0));
    await expect.poll(async () => (await store.info(runId))?.next, { timeout: 5000 }).toBe(1);
    expect((await store.info(runId))?.cancelRequest).toBeUndefined();
    await expect
      .poll(
        () =>
          store
            .cancel(runId, 'enough', { by: 'test' })
            .then(async () => (await store.info(runId))?.cancelRequest),
        { timeout: 5000 },
      )
      .toEqual({ by: 'test', reason: 'enough' });
    writer.append(line(1, true));
    await writer.ended;
    await store.close();
  });

  it('an unknown run is RUN_NOT_FOUND; a second writer of a run is RUN_EXISTS', async () => {
    const store = harness.store({ maxEvents: 1000 });
    const runId = harness.runId();
    const error = await lastValueFrom(fromRunStore(store, runId)).catch((e: unknown) => e);
    expect(isRunStoreError(error, 'RUN_NOT_FOUND')).toBe(true);
    expect(await store.info(runId)).toBeUndefined();
    await writeRun(store, runId, 1);
    const second = await (async () => store.openWriter(runId).ended)().catch((e: unknown) => e);
    expect(isRunStoreError(second, 'RUN_EXISTS')).toBe(true);
    expect(isOwnerLostError(second)).toBe(false);
    await store.close();
  });
}
