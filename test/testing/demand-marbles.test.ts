import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { demandMarbles } from '../../src/testing/index.js';

describe('demandMarbles', () => {
  it('pauses at `p` and resumes at `r`, at frame times of the given scheduler', () => {
    const scheduler = new VirtualTimeScheduler();
    const valve = demandMarbles('p--r 10ms p', scheduler);
    const changes: string[] = [];
    valve.onChange((paused) => changes.push(`${scheduler.now()}:${paused ? 'p' : 'r'}`));
    expect(valve.paused).toBe(true);
    scheduler.flush();
    expect(changes).toEqual(['3:r', '14:p']);
  });

  it('accepts only p and r', () => {
    expect(() => demandMarbles('--x')).toThrow(
      "Expected the `marbles` argument to be a diagram of 'p' (pause) and 'r' (resume)",
    );
    expect(() => demandMarbles('--p-|')).toThrow(
      "a diagram of 'p' (pause) and 'r' (resume), got `--p-|` (string)",
    );
  });
});
