import { describe, expect, it } from 'vitest';
import { followExec } from '../../examples/mcp-follow/follow-exec.js';

describe('examples/mcp-follow', () => {
  it('prints each progress notification as it arrives, then the result; exits with the command', async () => {
    let out = '';
    const code = await followExec(
      ['sh', '-c', 'echo one; sleep 0.3; echo two >&2; sleep 0.3; echo three; exit 4'],
      (text) => {
        out += text;
      },
    );
    expect(code).toBe(4);
    const lines = out.trimEnd().split('\n');
    expect(lines, out).toHaveLength(4);
    expect(lines[0]).toMatch(/^\+ +\d+ ms {2}progress 1 {5}one$/);
    expect(lines[1]).toMatch(/^\+ +\d+ ms {2}progress 2 {5}\[stderr\] two$/);
    expect(lines[2]).toMatch(/^\+ +\d+ ms {2}progress 3 {5}three$/);
    expect(lines[3]).toMatch(
      /^\+ +\d+ ms {2}error result {3}exit 4 · \d+ ms · 3 lines sent as progress notifications$/,
    );
    // Live: the lines came 0.3 s apart, not all at the end.
    const times = lines.map((line) => Number(/^\+ +(\d+) ms/.exec(line)?.[1]));
    expect((times[2] ?? 0) - (times[0] ?? 0)).toBeGreaterThan(400);
  });
});
