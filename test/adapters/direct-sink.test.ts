import { filter, Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { onChunk } from '../../src/adapters/on-chunk.js';
import { toAsyncIterable } from '../../src/adapters/to-async-iterable.js';
import { directSinkOf } from '../../src/core/subscriber-chain.js';
import { type ExecEvent, exec, Valve } from '../../src/index.js';
import { findChild, fixture, liveGroupMembers, pollUntil, writtenBytes } from '../support/processes.js';
import { needs } from '../support/system-tools.js';

// `toAsyncIterable(exec(…))` and `onChunk(exec(…), …)` with nothing between: exec pushes its lines
// straight into the adapter's queue (one queue on the hot path, docs/benchmarks.md) and follows
// that queue's valve. What a user sees must not change: bounded, ordered, no false warning, ends
// and teardown as through any other chain.

function recordingLogger() {
  const messages: string[] = [];
  return { messages, logger: { warn: (message: string) => messages.push(message) } };
}

describe('the direct sink an adapter offers', () => {
  it('is found only on the subscriber the adapter made, never through an operator', async () => {
    const found: unknown[] = [];
    const probe = new Observable<number>((subscriber) => {
      found.push(directSinkOf(subscriber));
      subscriber.complete();
    });
    for await (const _value of toAsyncIterable(probe)) break;
    for await (const _value of toAsyncIterable(probe.pipe(filter(() => true)))) break;
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ demand: expect.any(Valve), push: expect.any(Function) });
    expect(found[1]).toBeUndefined();
  });
});

describe.skipIf(!needs('linux', 'ps', 'python3'))('exec straight into an adapter', () => {
  it('toAsyncIterable(exec(…)): the child blocks while the loop waits, lines stay in order, break kills the group', async () => {
    const counter = fixture('exec-counter.py');
    const iterator = toAsyncIterable(exec('python3', [counter]), { bufferSize: 4 });
    let consumed = 0;
    let consumedBytes = 0;
    const take = async (count: number) => {
      for (let index = 0; index < count; index += 1) {
        const { value } = (await iterator.next()) as IteratorResult<ExecEvent>;
        expect(value.kind).toBe('stdout');
        expect(Number(value.content.slice(0, 10))).toBe(consumed);
        consumed += 1;
        consumedBytes += String(value.content).length;
      }
    };
    await take(1000);
    const pid = findChild(counter) as number;
    expect(pid).toBeGreaterThan(0);
    // The loop stops asking: the child's write count must stop growing (it blocks on its pipe).
    let last = writtenBytes(pid);
    let since = performance.now();
    const blocked = await pollUntil(() => {
      const now = writtenBytes(pid);
      if (now !== last) [last, since] = [now, performance.now()];
      return performance.now() - since >= 300;
    }, 15_000);
    expect(blocked).toBe(true);
    // Its lead is the pipe, Python's buffer and one read: bounded, whatever the output size.
    expect(writtenBytes(pid) - consumedBytes).toBeLessThan(1024 * 1024);
    await take(50_000);
    await iterator.return?.();
    expect(await pollUntil(() => liveGroupMembers(pid).length === 0, 10_000)).toBe(true);
  });

  it('a read of many short lines past 8 × bufferSize is not ignored demand: no warning, every line once, then the exit event', async () => {
    const { messages, logger } = recordingLogger();
    // 20 000 two-byte lines: one pipe read holds thousands of them, far past 8 × 1 (at least 64).
    const script = 'import sys\nsys.stdout.write("x\\n" * 20000)\n';
    const kinds: string[] = [];
    let lines = 0;
    for await (const event of toAsyncIterable(exec('python3', ['-c', script]), { bufferSize: 1, logger })) {
      kinds.push(event.kind);
      if (event.kind === 'stdout') {
        expect(event.content).toBe('x\n');
        expect(event.sequence).toBe(lines);
        lines += 1;
      }
    }
    expect(lines).toBe(20_000);
    expect(kinds.at(-1)).toBe('exit');
    expect(messages).toEqual([]);
  });

  it('onChunk(exec(…), …): an error of the run comes after every line, as through any chain', async () => {
    const seen: ExecEvent[] = [];
    const run = onChunk(exec('sh', ['-c', 'echo one; echo two; exit 3']), async (event) => {
      seen.push(event);
    });
    await expect(run).rejects.toMatchObject({ code: 'EXEC_FAILED' });
    expect(seen.map((event) => event.content)).toEqual(['one\n', 'two\n']);
  });
});
