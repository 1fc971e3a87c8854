import { describe, expect, it } from 'vitest';
import { RunnerRecord } from '../../../src/kernel/supervisor/start-runner.js';
import type { ToolChunk } from '../../../src/kernel/tools/tool.js';

const chunk = (content: string): ToolChunk => ({ kind: 'stdout', content }) as ToolChunk;
const exited = { exitCode: 0, signal: null, timedOut: false };

describe('RunnerRecord', () => {
  it('keeps the first chunks and malformed lines up to its bounds and counts the rest', () => {
    const record = new RunnerRecord(2, 1);
    for (const content of ['a', 'b', 'c']) record.addChunk(chunk(content));
    record.addMalformed('{', 'bad JSON');
    record.addMalformed('x'.repeat(300), 'too long');
    const info = record.exitInfo(7, exited, 12);
    expect(info).toMatchObject({
      pid: 7,
      exitCode: 0,
      chunksDropped: 1,
      malformedDropped: 1,
      durationMs: 12,
    });
    expect(info.chunks.map((kept) => kept.content)).toEqual(['a', 'b']);
    expect(info.malformed).toEqual([{ line: '{', problem: 'bad JSON' }]);
    expect(info).not.toHaveProperty('result');
  });

  it('cuts a shown malformed line to 200 characters, and stderr to 64 KiB', () => {
    const record = new RunnerRecord(1, 1);
    expect(record.addMalformed('y'.repeat(300), 'p').line).toBe(`${'y'.repeat(197)}...`);
    record.addStderr('e'.repeat(60 * 1024));
    record.addStderr('f'.repeat(8 * 1024));
    expect(record.exitInfo(1, exited, 0).stderr).toHaveLength(64 * 1024);
  });

  it('reports tool calls with their answers and the result message', () => {
    const record = new RunnerRecord(1, 1);
    const call = record.addToolCall(3, 'Exec');
    call.result = { ok: true } as never;
    record.setResult({ answer: 42 });
    const info = record.exitInfo(1, exited, 0);
    expect(info.toolCalls).toEqual([{ id: 3, name: 'Exec', result: { ok: true } }]);
    expect(info.result).toEqual({ answer: 42 });
  });
});
