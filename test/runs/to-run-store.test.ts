import { lastValueFrom, Observable, Subject, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { type Demand, Valve } from '../../src/core/demand.js';
import { isSluiceError } from '../../src/core/errors/sluice-error.js';
import { demandOf } from '../../src/core/subscriber-chain.js';
import { fromRunStore } from '../../src/runs/follow-run.js';
import { MemoryRunStore } from '../../src/runs/memory-run-store.js';
import type { RunStore, RunWriter } from '../../src/runs/run-store.js';
import { toRunStore } from '../../src/runs/to-run-store.js';
import { exec } from '../../src/sources/exec.js';
import { chunk } from '../support/chunk.js';
import { groupGone } from '../support/processes.js';
import { needs } from '../support/system-tools.js';

const line = (sequence: number, isFinal = false): ChunkEvent<string> =>
  chunk(sequence, `${sequence}\n`, isFinal, { kind: isFinal ? 'exit' : 'stdout' });

describe('toRunStore', () => {
  it('passes the stream through, publishes it, and completes once the store has the final event', async () => {
    const store = new MemoryRunStore();
    const events = await lastValueFrom(
      exec('sh', ['-c', 'echo a; echo b']).pipe(toRunStore(store, 'r1'), toArray()),
    );
    expect(events.map((event) => event.kind)).toEqual(['stdout', 'stdout', 'exit']);
    const followed = await lastValueFrom(fromRunStore(store, 'r1').pipe(toArray()));
    expect(followed).toEqual(events);
  });

  it.skipIf(!needs('linux'))(
    'a cancel through the store kills the command and ends the run with the sentinel, for everybody',
    async () => {
      const store = new MemoryRunStore();
      let pid: number | undefined;
      const seen: ChunkEvent<unknown>[] = [];
      const done = lastValueFrom(
        exec('sh', ['-c', 'echo $$; exec sleep 30']).pipe(toRunStore(store, 'r2'), toArray()),
      );
      const follower = fromRunStore(store, 'r2').subscribe((event) => {
        seen.push(event);
        if (event.sequence === 0) pid = Number(event.content);
      });
      await expect.poll(() => pid).toBeGreaterThan(0);
      expect(await store.cancel('r2', 'enough')).toBe(true);
      const events = await done;
      const sentinel = {
        sequence: 1,
        kind: 'end',
        content: null,
        metadata: { reason: 'enough' },
        isFinal: true,
      };
      expect(events.at(-1)).toEqual(sentinel);
      expect(seen.at(-1)).toEqual(sentinel);
      expect(follower.closed).toBe(true);
      expect(await groupGone(pid as number)).toBe(true);
    },
  );

  it('unsubscribing ends the run as cancelled, so followers are not left waiting', async () => {
    const store = new MemoryRunStore();
    const source = new Subject<ChunkEvent<string>>();
    const subscription = source.pipe(toRunStore(store, 'r3')).subscribe();
    source.next(line(0));
    subscription.unsubscribe();
    expect(source.observed).toBe(false);
    const events = await lastValueFrom(fromRunStore(store, 'r3').pipe(toArray()));
    expect(events.at(-1)).toEqual({
      sequence: 1,
      kind: 'end',
      content: null,
      metadata: { reason: 'cancelled' },
      isFinal: true,
    });
  });

  it("a source error is recorded as the run's failure, then forwarded", async () => {
    const store = new MemoryRunStore();
    const source = new Subject<ChunkEvent<string>>();
    const result = lastValueFrom(source.pipe(toRunStore(store, 'r4'))).catch((error: unknown) => error);
    source.next(line(0));
    source.error(new Error('broken pipe'));
    expect(((await result) as Error).message).toBe('broken pipe');
    expect((await store.info('r4'))?.failure).toMatchObject({
      code: 'STREAM_FAILED',
      message: 'broken pipe',
    });
  });

  it("pauses the producer while the writer's demand or the consumer's is paused", () => {
    const writerDemand = new Valve();
    const store: RunStore = {
      openWriter: (runId): RunWriter => ({
        runId,
        demand: writerDemand,
        ended: new Promise(() => {}),
        append: () => {},
        fail: () => {},
        onCancel: () => () => {},
        close: () => {},
      }),
      read: () => new Observable(),
      cancel: async () => false,
      info: async () => undefined,
      lastRecord: async () => undefined,
      close: async () => {},
    };
    let producerDemand: Demand | undefined;
    const producer = new Observable<ChunkEvent<string>>((subscriber) => {
      producerDemand = demandOf(subscriber);
    });
    const subscription = producer.pipe(toRunStore(store, 'r5')).subscribe();
    expect(producerDemand?.paused).toBe(false);
    writerDemand.pause();
    expect(producerDemand?.paused).toBe(true);
    writerDemand.resume();
    expect(producerDemand?.paused).toBe(false);
    subscription.unsubscribe();
  });

  it("a cancel's details end up in the sentinel; a synchronous source stops mid-loop", async () => {
    const store = new MemoryRunStore();
    let emitted = 0;
    const endless = new Observable<ChunkEvent<string>>((subscriber) => {
      for (let sequence = 0; !subscriber.closed && sequence < 1000; sequence += 1) {
        emitted += 1;
        subscriber.next(line(sequence));
        if (sequence === 5) void store.cancel('r6', 'cancelled', { by: 'page' });
      }
    });
    const events = await lastValueFrom(
      endless.pipe(toRunStore(store, 'r6', { label: 'endless' }), toArray()),
    );
    expect(emitted).toBe(6);
    expect(events.at(-1)).toEqual({
      sequence: 6,
      kind: 'end',
      content: null,
      metadata: { by: 'page', reason: 'cancelled' },
      isFinal: true,
    });
    expect((await store.info('r6'))?.label).toBe('endless');
  });

  it('publishes a final event when its source completes; a source that goes on fails the run, naming joinRuns()', async () => {
    const store = new MemoryRunStore();
    const source = new Subject<ChunkEvent<string>>();
    const output: unknown[] = [];
    source.pipe(toRunStore(store, 'held')).subscribe({
      next: (event) => output.push(event.sequence),
      error: (error: Error) => output.push(error.message),
    });
    source.next(line(0));
    source.next(line(1, true));
    // Not yet published: the source may go on (a second run) or complete.
    const before = await lastValueFrom(fromRunStore(store, 'held').pipe(take(1), toArray()));
    expect(before.map((event) => event.sequence)).toEqual([0]);
    expect(output).toEqual([0]);
    source.next(line(0)); // the next run's first event
    const failure = await lastValueFrom(fromRunStore(store, 'held')).catch((error: unknown) => error);
    expect(isSluiceError(failure) && failure.code).toBe('STREAM_SEQUENCE');
    await expect.poll(() => output.length).toBe(2);
    expect(String(output[1])).toContain('add joinRuns() after them');
    expect(source.observed).toBe(false);
  });

  it('a cancel while the final event waits for completion ends the run with the sentinel in its place', async () => {
    const store = new MemoryRunStore();
    const source = new Subject<ChunkEvent<string>>();
    const done = lastValueFrom(source.pipe(toRunStore(store, 'held-cancel'), toArray()));
    source.next(line(0));
    source.next(line(1, true));
    expect(await store.cancel('held-cancel', 'enough')).toBe(true);
    const events = await done;
    expect(events.map((event) => [event.sequence, event.kind, event.isFinal])).toEqual([
      [0, 'stdout', false],
      [1, 'end', true],
    ]);
    expect(source.observed).toBe(false);
  });

  it('rejects a bad store or run id before subscribing', () => {
    expect(() => toRunStore(new MemoryRunStore(), 'x', { label: 7 } as never)).toThrow(
      'Expected the `label` option to be a string, got `7` (number)',
    );
    expect(() => toRunStore({} as RunStore, 'x')).toThrow('Expected the `store` argument to be a RunStore');
    expect(() => toRunStore(new MemoryRunStore(), '')).toThrow(
      'Expected the `runId` argument to be a non-empty string',
    );
  });
});
