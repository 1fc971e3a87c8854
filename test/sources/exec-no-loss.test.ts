import { describe, expect, it } from 'vitest';
import { type ExecEvent, exec } from '../../src/index.js';

function run(): Promise<ExecEvent[]> {
  return new Promise((resolve, reject) => {
    const events: ExecEvent[] = [];
    exec('seq', ['1', '10000']).subscribe({
      next: (event) => events.push(event),
      error: reject,
      complete: () => resolve(events),
    });
  });
}

describe('exec no-loss', () => {
  it('delivers every line of a child that writes 10 000 lines and exits at once before the exit event (50 runs)', async () => {
    const expected = Array.from({ length: 10_000 }, (_, index) => `${index + 1}\n`);
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const events = await run();
      expect(events).toHaveLength(10_001);
      const last = events[10_000] as ExecEvent;
      expect(last.kind).toBe('exit');
      expect(last.kind === 'exit' && last.content.exitCode).toBe(0);
      const lines = events.slice(0, 10_000);
      expect(lines.every((event, index) => event.kind === 'stdout' && event.sequence === index)).toBe(true);
      expect(lines.map((event) => event.content)).toEqual(expected);
    }
  });
});
