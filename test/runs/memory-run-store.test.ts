import { lastValueFrom, type Subscription, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { Valve } from '../../src/core/demand.js';
import { subscribeWithDemand } from '../../src/core/subscriber-chain.js';
import { MemoryRunStore } from '../../src/runs/memory-run-store.js';
import type { RunRecord } from '../../src/runs/run-record.js';
import { encodeChunkEvent } from '../../src/runs/sse/run-frames.js';
import { chunk } from '../support/chunk.js';
import { runStoreContract } from './run-store-contract.js';

const line = (sequence: number, isFinal = false): ChunkEvent<unknown> =>
  chunk(sequence, `line ${sequence}\n`, isFinal, { kind: isFinal ? 'exit' : 'stdout' });

/** A reader of `runId` whose demand is `valve`; returns what it saw (`g` for a gap, else sequences). */
function reader(store: MemoryRunStore, runId: string, valve: Valve): { seen: string[]; sub: Subscription } {
  const seen: string[] = [];
  const sub = subscribeWithDemand(store.read(runId), valve, {
    next: (record: RunRecord) => {
      if (record.type === 'gap') seen.push(`g${record.from}-${record.to}`);
      else if (record.type === 'events') for (const event of record.events) seen.push(String(event.sequence));
    },
  });
  return { seen, sub };
}

let runs = 0;
describe('MemoryRunStore', () => {
  runStoreContract({
    store: ({ maxEvents }) => new MemoryRunStore({ maxEvents }),
    runId: () => `run-${++runs}`,
  });
});

describe('MemoryRunStore: demand and retention', () => {
  it("pauses the writer only while its log is full and every reader still needs the log's oldest event", () => {
    const store = new MemoryRunStore({ maxEvents: 3 });
    const writer = store.openWriter('d1');
    for (let sequence = 0; sequence < 5; sequence += 1) writer.append(line(sequence));
    expect(writer.demand.paused).toBe(false); // no reader: the log keeps the newest events
    const slow = new Valve();
    slow.pause();
    const lagging = reader(store, 'd1', slow);
    expect(writer.demand.paused).toBe(true); // full, and the only reader needs event 2
    const fast = reader(store, 'd1', new Valve());
    expect(fast.seen).toEqual(['g0-1', '2', '3', '4']);
    expect(writer.demand.paused).toBe(false); // the fast reader sets the pace
    writer.append(line(5));
    fast.sub.unsubscribe();
    expect(writer.demand.paused).toBe(true); // the lagging reader is alone again, still at event 0
    slow.resume();
    expect(lagging.seen).toEqual(['g0-2', '3', '4', '5']);
    expect(writer.demand.paused).toBe(false);
    lagging.sub.unsubscribe();
  });

  it("bounds each run by maxBytes of frames and gives readers the events' frames (and equal copies of the events)", async () => {
    const frame = encodeChunkEvent(line(0));
    const store = new MemoryRunStore({ maxBytes: Buffer.byteLength(frame) * 2 });
    const writer = store.openWriter('b1');
    for (let sequence = 0; sequence < 10; sequence += 1) writer.append(line(sequence, sequence === 9));
    expect(store.log('b1')?.size).toBe(2);
    const records = await lastValueFrom(store.read('b1', { after: 7 }).pipe(toArray()));
    expect(records.map((record) => record.type === 'events' && record.frames)).toEqual([
      [encodeChunkEvent(line(8))],
      [encodeChunkEvent(line(9, true))],
    ]);
    expect(records.map((record) => record.type === 'events' && record.events)).toEqual([
      [line(8)],
      [line(9, true)],
    ]);
  });

  it('delete forgets a run now; retainMs forgets an ended one later', async () => {
    let now = 0;
    const scheduler = { now: () => now, schedule: () => ({ unsubscribe: () => {} }) } as never;
    const store = new MemoryRunStore({ retainMs: 100, scheduler });
    store.openWriter('gone').append(line(0, true));
    store.openWriter('live').append(line(0));
    expect(store.delete('gone')).toBe(true);
    expect(await store.info('gone')).toBeUndefined();
    expect(store.delete('gone')).toBe(false);
    store.openWriter('ended').append(line(0, true));
    now = 99;
    expect(store.size).toBe(2);
    now = 100;
    expect(store.size).toBe(1);
    expect((await store.info('live'))?.state).toBe('running');
  });
});
