import { describe, expect, it } from 'vitest';
import { guardChunkCallback } from '../../../src/kernel/tools/guard-chunk-callback.js';
import type { ToolChunk } from '../../../src/kernel/tools/tool-chunk.js';

describe('guardChunkCallback', () => {
  it('keeps undefined undefined', () => {
    expect(guardChunkCallback(undefined)).toBeUndefined();
  });

  it('forwards valid chunks and swallows what the listener throws, reporting it', () => {
    const seen: ToolChunk[] = [];
    const errors: unknown[] = [];
    const guarded = guardChunkCallback(
      (chunk) => {
        seen.push(chunk);
        throw new Error('listener bug');
      },
      (error) => {
        errors.push(error);
        throw new Error('reporter bug too');
      },
    );
    expect(() =>
      guarded?.({ op: 'chunk', kind: 'stdout', content: 'a\n', metadata: { tool: 'Exec' } }),
    ).not.toThrow();
    expect(seen).toEqual([{ op: 'chunk', kind: 'stdout', content: 'a\n', metadata: { tool: 'Exec' } }]);
    expect(errors).toHaveLength(1);
  });

  it('rejects a payload of the wrong shape with a TypeError naming the field, before the listener', () => {
    const seen: unknown[] = [];
    const guarded = guardChunkCallback((chunk) => seen.push(chunk));
    expect(() => guarded?.({ op: 'chunk', kind: 3 } as unknown as ToolChunk)).toThrow(
      new TypeError('Invalid chunk: `kind` must be a string, got 3 (number)'),
    );
    expect(() => guarded?.({ op: 'chunks', kind: 'x', content: 1 } as unknown as ToolChunk)).toThrow(
      'Invalid chunk: `op` must be "chunk", got "chunks" (string)',
    );
    expect(seen).toEqual([]);
  });
});
