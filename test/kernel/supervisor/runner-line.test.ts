import { describe, expect, it } from 'vitest';
import { parseRunnerLine } from '../../../src/kernel/supervisor/start-runner.js';

describe('parseRunnerLine', () => {
  it('decodes the three messages', () => {
    expect(parseRunnerLine('{"op":"chunk","kind":"token","content":"Hel","metadata":{"model":"m"}}')).toEqual(
      {
        ok: true,
        message: { op: 'chunk', kind: 'token', content: 'Hel', metadata: { model: 'm' } },
      },
    );
    expect(parseRunnerLine('{"op":"tool_call","id":1,"name":"Exec","args":{"argv":["ls"]}}')).toEqual({
      ok: true,
      message: { op: 'tool_call', id: 1, name: 'Exec', args: { argv: ['ls'] } },
    });
    expect(parseRunnerLine('{"op":"result","value":[1,2]}')).toEqual({
      ok: true,
      message: { op: 'result', value: [1, 2] },
    });
  });

  it('reports what is wrong, never throws', () => {
    expect(parseRunnerLine('hello')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^Not JSON: /),
    });
    expect(parseRunnerLine('[1]')).toEqual({ ok: false, problem: 'Expected a JSON object' });
    expect(parseRunnerLine('{"op":"dance"}')).toEqual({
      ok: false,
      problem: 'Unknown op "dance" (expected chunk, tool_call, result)',
    });
    expect(parseRunnerLine('{"kind":"x"}')).toEqual({
      ok: false,
      problem: 'Unknown op nothing (expected chunk, tool_call, result)',
    });
    expect(parseRunnerLine('{"op":"chunk","kind":5,"content":"x"}')).toEqual({
      ok: false,
      problem: 'Invalid message: `kind` must be a string, got 5 (number)',
    });
  });

  it('refuses a line nested deeper than 128 levels before parsing it', () => {
    const nested = (depth: number) => `{"op":"result","value":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const deepEnough = nested(127);
    expect(parseRunnerLine(deepEnough).ok).toBe(true);
    // The baseline, under this machine's load of the moment: building a tenth of the bomb.
    let started = performance.now();
    JSON.parse(nested(50_000));
    const buildTenth = performance.now() - started;
    started = performance.now();
    expect(parseRunnerLine(nested(500_000))).toEqual({
      ok: false,
      problem: 'Nests arrays and objects deeper than 128 levels',
    });
    expect(performance.now() - started).toBeLessThan(buildTenth);
  });
});
