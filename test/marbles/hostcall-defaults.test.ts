import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NEVER, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { MAX_DELAY_MS } from '../../src/core/max-delay-ms.js';
import { connectExtension } from '../../src/kernel/bridge/connect-extension.js';
import { createHost } from '../../src/kernel/host/create-host.js';
import { overflowLimit } from '../../src/kernel/host/open-host-stream.js';
import type { HostcallOutcome } from '../../src/kernel/protocol/hostcall-outcome.js';
import { streamOptionsSchema } from '../../src/kernel/protocol/stream-options.js';
import { createMacrotaskScheduler } from '../../src/kernel/scheduler/macrotask-scheduler.js';
import { readExecOptions } from '../../src/sources/exec/exec-options.js';
import { macrotask } from '../support/macrotask.js';

const document = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '../../marbles/HOSTCALL.md'),
  'utf8',
);

/** The rows of HOSTCALL.md's "Defaults" table: the first column's `name` → the second column's value. */
function documentedDefaults(): Map<string, string> {
  const section = document.split(/^## /m).find((part) => part.startsWith('Defaults')) ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (name !== undefined) rows.set(name, (cells[2] ?? '').replaceAll('`', ''));
  }
  return rows;
}

/** A host whose streams never produce, on a manual queue: a stream's credit is what was pulled. */
function quietHost() {
  const scheduler = createMacrotaskScheduler<HostcallOutcome>({
    clock: new VirtualTimeScheduler(),
    driver: 'manual',
  });
  return createHost({ scheduler, logger: { warn: () => {} }, producers: { exec: () => NEVER } });
}

/** What the code does, for each documented default: the value it shows, as text. */
const measured: Record<string, () => string | Promise<string>> = {
  buffer_size: () => String(streamOptionsSchema.parse({ stream: true }).bufferSize),
  stall_timeout_ms: () => String(streamOptionsSchema.parse({ stream: true }).stallTimeoutMs),
  'stall_timeout_ms max': () => {
    expect(() => streamOptionsSchema.parse({ stream: true, stall_timeout_ms: MAX_DELAY_MS + 1 })).toThrow();
    return String(streamOptionsSchema.parse({ stream: true, stall_timeout_ms: MAX_DELAY_MS }).stallTimeoutMs);
  },
  'overflow limit': () => {
    const factor = overflowLimit(1_000_000) / 1_000_000;
    const minimum = overflowLimit(1);
    expect(overflowLimit(minimum / factor + 1)).toBe(minimum + factor);
    return `max(${factor} × buffer_size, ${minimum})`;
  },
  'initial credit': () => {
    const host = quietHost();
    host.hostcall('ext-a', { callId: 'hc-1', kind: 'exec', payload: { cmd: 'yes', stream: true } });
    return String(host.stream('ext-a', 'hc-1')?.credit);
  },
  'bridge window': async () => {
    // The bridge's first pull, for an async-iterator consumer, with and without bufferSize.
    const host = quietHost();
    const { api } = connectExtension(host, 'ext-a', { callIds: () => `hc-${host.activeStreams().length}` });
    const windows: number[] = [];
    for (const options of [{ stream: true as const }, { stream: true as const, bufferSize: 6 }]) {
      const stream = api.exec('yes', options);
      const callId = `hc-${host.activeStreams().length - 1}`;
      void stream[Symbol.asyncIterator]().next();
      await Promise.resolve();
      windows.push(host.stream('ext-a', callId)?.credit ?? -1);
    }
    expect(windows[1]).toBe(6);
    return `buffer_size (${windows[0]})`;
  },
  'scheduler batch': async () => {
    let delivered = 0;
    const scheduler = createMacrotaskScheduler<string>({ deliver: () => (delivered += 1) });
    for (let n = 0; n < 1000; n += 1) scheduler.enqueue('ext-a', `hc-${n}`, 'x');
    // The driver's first microtask was queued before this await's continuation: it ran one turn.
    await Promise.resolve();
    const firstTurn = delivered;
    await macrotask();
    expect(delivered).toBe(1000);
    return String(firstTurn);
  },
  'cancel kill grace ms': () => String(readExecOptions('yes', [], {}).forceKillAfterMs),
};

describe('marbles/HOSTCALL.md · Defaults', () => {
  it('states every default the code has, and only those', () => {
    expect([...documentedDefaults().keys()].sort()).toEqual(Object.keys(measured).sort());
  });

  for (const [name, measure] of Object.entries(measured)) {
    it(`\`${name}\` is what the code does`, async () => {
      expect(await measure()).toBe(documentedDefaults().get(name));
    });
  }
});
