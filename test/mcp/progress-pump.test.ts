import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ToolChunk } from '../../src/kernel/index.js';
import { createProgressPump, type ProgressUpdate } from '../../src/mcp/progress-pump.js';
import { advanceVirtualTime } from '../../src/testing/index.js';

const line = (content: string, kind = 'stdout', partial = false): ToolChunk => ({
  op: 'chunk',
  kind,
  content,
  metadata: partial ? { tool: 'Exec', partial: true } : { tool: 'Exec' },
});

/** A pump on a virtual clock whose sends stay in flight until the test settles them. */
function setup(options: { highWaterChars?: number; autoSettle?: boolean } = {}) {
  const clock = new VirtualTimeScheduler();
  const sent: { at: number; update: ProgressUpdate }[] = [];
  const inFlight: (() => void)[] = [];
  const pump = createProgressPump({
    send: (update) => {
      sent.push({ at: clock.now(), update });
      if (options.autoSettle ?? true) return Promise.resolve();
      return new Promise<void>((resolve) => inFlight.push(resolve));
    },
    intervalMs: 20,
    highWaterChars: options.highWaterChars ?? 1 << 20,
    scheduler: clock,
  });
  const settle = async () => {
    inFlight.shift()?.();
    await Promise.resolve();
    await Promise.resolve();
  };
  const tick = async (ms: number) => {
    advanceVirtualTime(clock, ms);
    await Promise.resolve();
    await Promise.resolve();
  };
  return { clock, pump, sent, settle, tick, inFlight };
}

describe('createProgressPump', () => {
  it('sends the first line at once, then at most one update per 20 ms with every line since the last', async () => {
    const { pump, sent, tick } = setup();
    pump.push(line('a\n'));
    await tick(0);
    expect(sent).toEqual([{ at: 0, update: { progress: 1, message: 'a\n' } }]);
    pump.push(line('b\n'));
    await tick(5);
    pump.push(line('c\n'));
    await tick(5);
    expect(sent).toHaveLength(1); // held back: the window is not over
    pump.push(line('d\n'));
    await tick(10);
    expect(sent[1]).toEqual({ at: 20, update: { progress: 4, message: 'b\nc\nd\n' } });
    await tick(100); // nothing pending, nothing sent
    expect(sent).toHaveLength(2);
    pump.push(line('e\n'));
    await tick(0);
    expect(sent[2]).toEqual({ at: 120, update: { progress: 5, message: 'e\n' } }); // a quiet window: at once
  });

  it('keeps one update in flight: a slow transport gets fewer, larger updates, nothing dropped', async () => {
    const { pump, sent, settle, tick } = setup({ autoSettle: false });
    pump.push(line('0\n'));
    await tick(0);
    for (let index = 1; index <= 100; index += 1) {
      pump.push(line(`${index}\n`));
      await tick(1);
    }
    expect(sent).toHaveLength(1); // 100 ms later, still waiting for the transport
    await settle();
    await tick(0);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.update.progress).toBe(101);
    const all = sent.map((entry) => entry.update.message).join('');
    expect(all).toBe(Array.from({ length: 101 }, (_, index) => `${index}\n`).join(''));
  });

  it('flush sends what is pending without waiting for the window, and resolves when all is out', async () => {
    const { pump, sent, settle, tick } = setup({ autoSettle: false });
    pump.push(line('a\n'));
    await tick(0);
    pump.push(line('b\n'));
    let flushed = false;
    const done = pump.flush().then(() => {
      flushed = true;
    });
    await tick(0);
    expect(flushed).toBe(false); // 'a' is still in flight, 'b' behind it
    await settle(); // 'a' taken: 'b' goes out at once, at virtual time 0 (no 20 ms wait)
    expect(sent.map((entry) => [entry.at, entry.update.message])).toEqual([
      [0, 'a\n'],
      [0, 'b\n'],
    ]);
    expect(flushed).toBe(false);
    await settle();
    await done;
    expect(flushed).toBe(true);
  });

  it('flush with nothing pending resolves at once', async () => {
    const { pump, sent } = setup();
    await pump.flush();
    expect(sent).toEqual([]);
    expect(pump.chunks()).toBe(0);
  });

  it('pauses the demand past the high-water mark, resumes once the transport took the batch', async () => {
    const { pump, settle, tick } = setup({ highWaterChars: 10, autoSettle: false });
    const states: boolean[] = [];
    pump.demand.onChange((paused) => states.push(paused));
    pump.push(line('first\n'));
    await tick(0); // in flight
    pump.push(line('12345\n'));
    expect(pump.demand.paused).toBe(false);
    pump.push(line('67890\n')); // 12 chars wait: pause
    expect(pump.demand.paused).toBe(true);
    await settle(); // 'first' is out; the 12 chars go next
    await tick(20);
    expect(pump.demand.paused).toBe(true); // still in flight
    await settle();
    expect(pump.demand.paused).toBe(false);
    expect(states).toEqual([true, false]);
  });

  it('marks stderr lines once at their start, also a line that comes in partial pieces', async () => {
    const { pump, sent, tick } = setup();
    pump.push(line('out\n'));
    pump.push(line('warn', 'stderr', true));
    pump.push(line('ing\n', 'stderr'));
    pump.push(line('again\n', 'stderr'));
    pump.push({ op: 'chunk', kind: 'token', content: { n: 1 } });
    await tick(0);
    await pump.flush();
    expect(sent.map((entry) => entry.update.message).join('')).toBe(
      'out\n[stderr] warning\n[stderr] again\n{"n":1}\n',
    );
    expect(sent.at(-1)?.update.progress).toBe(5);
  });

  it('close discards what is pending and sends nothing more; a failed send closes it', async () => {
    const { pump, sent, tick } = setup();
    pump.push(line('a\n'));
    await tick(0);
    pump.push(line('b\n'));
    pump.close();
    await tick(100);
    pump.push(line('c\n'));
    await tick(100);
    expect(sent.map((entry) => entry.update.message)).toEqual(['a\n']);
    await pump.flush(); // resolves: nothing will be sent

    const clock = new VirtualTimeScheduler();
    let calls = 0;
    const failing = createProgressPump({
      send: () => {
        calls += 1;
        return Promise.reject(new Error('Not connected'));
      },
      intervalMs: 20,
      highWaterChars: 4,
      scheduler: clock,
    });
    failing.push(line('x\n'));
    advanceVirtualTime(clock, 0);
    failing.push(line('yyyy\n'));
    expect(failing.demand.paused).toBe(true);
    await Promise.resolve();
    await Promise.resolve();
    expect(failing.demand.paused).toBe(false); // never left paused
    advanceVirtualTime(clock, 100);
    expect(calls).toBe(1);
  });
});
