import { describe, expect, it } from 'vitest';
import { type ContainmentOption, type ExecEvent, type ExecOptions, exec } from '../../src/index.js';
import { containments } from '../support/system-tools.js';

function run(file: string, args: string[], options: ExecOptions): Promise<ExecEvent[]> {
  return new Promise((resolve, reject) => {
    const events: ExecEvent[] = [];
    exec(file, args, options).subscribe({
      next: (event) => events.push(event),
      error: reject,
      complete: () => resolve(events),
    });
  });
}

describe.each(containments())('exec no-loss (containment %s)', (containment: ContainmentOption) => {
  it('delivers every line of a child that writes 10 000 lines and exits at once before the exit event (25 runs)', async () => {
    const expected = Array.from({ length: 10_000 }, (_, index) => `${index + 1}\n`);
    for (let attempt = 0; attempt < 25; attempt += 1) {
      const events = await run('seq', ['1', '10000'], { containment });
      expect(events).toHaveLength(10_001);
      const last = events[10_000] as ExecEvent;
      expect(last.kind).toBe('exit');
      expect(last.kind === 'exit' && last.content.exitCode).toBe(0);
      const lines = events.slice(0, 10_000);
      expect(lines.every((event, index) => event.kind === 'stdout' && event.sequence === index)).toBe(true);
      expect(lines.map((event) => event.content)).toEqual(expected);
    }
  });

  it('delivers output written after the leader exited, by a background child that holds the pipe', async () => {
    // The leader exits at once; its background child writes 200 ms later. The run is complete
    // only once both pipes ended, not at the leader's exit.
    const events = await run('sh', ['-c', '(sleep .2; echo late) & exit 0'], {
      containment,
      forceKillAfterMs: 10_000,
    });
    expect(events.map((event) => event.kind)).toEqual(['stdout', 'exit']);
    expect(events[0]?.content).toBe('late\n');
    expect(events[1]?.content).toMatchObject({ exitCode: 0, stdout: 'late\n', containment });
  });
});
