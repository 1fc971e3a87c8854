import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Valve } from '../../../src/core/demand.js';
import { SluiceError } from '../../../src/core/errors/sluice-error.js';
import { dispatchToolCall, guardChunkCallback } from '../../../src/kernel/tools/dispatch-tool-call.js';
import type { ToolChunk, ToolContext } from '../../../src/kernel/tools/tool.js';
import { createToolRegistry } from '../../../src/kernel/tools/tool-registry.js';

function setup() {
  const seen: ToolContext[] = [];
  const registry = createToolRegistry();
  registry.register({
    name: 'Echo',
    schema: z.strictObject({
      text: z.string(),
      stream: z.boolean({ error: 'must be a boolean' }).optional(),
    }),
    handler: (args: { text: string; stream?: boolean }, ctx) => {
      seen.push(ctx);
      if (args.stream) for (const ch of args.text) ctx.onChunk?.({ op: 'chunk', kind: 'char', content: ch });
      return { echoed: args.text };
    },
  });
  registry.register({
    name: 'Boom',
    schema: z.object({}),
    handler: () => {
      throw new Error('disk on fire');
    },
  });
  registry.register({
    name: 'Typed',
    schema: z.object({}),
    handler: async () => {
      throw new SluiceError('TIMEOUT', 'took too long');
    },
  });
  return { registry, seen };
}
const call = (name: string, args?: unknown) => ({ op: 'tool_call', id: 'c1', name, args });

describe('dispatchToolCall', () => {
  it('ToolContext accepts onChunk undefined and round-trips to handlers', async () => {
    const { registry, seen } = setup();
    const kernel = { name: 'k' };
    const result = await dispatchToolCall({ msg: call('Echo', { text: 'hi' }), pid: 42, registry, kernel });
    expect(result).toEqual({ ok: true, value: { echoed: 'hi' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.pid).toBe(42);
    expect(seen[0]?.kernel).toBe(kernel);
    expect(seen[0]?.onChunk).toBeUndefined();
    await dispatchToolCall({ msg: call('Echo', { text: 'x' }), pid: 1, registry, onChunk: undefined });
    expect(seen[1]?.onChunk).toBeUndefined();
    expect(seen[1]?.kernel).toBeUndefined();
  });

  it('dispatchToolCall(…, onChunk: cb) reaches the handler ctx.onChunk', async () => {
    const { registry, seen } = setup();
    const chunks: ToolChunk[] = [];
    const result = await dispatchToolCall({
      msg: call('Echo', { text: 'abc', stream: true }),
      pid: 3,
      registry,
      onChunk: (chunk) => chunks.push(chunk),
    });
    expect(typeof seen[0]?.onChunk).toBe('function');
    expect(chunks.map((chunk) => chunk.content)).toEqual(['a', 'b', 'c']);
    expect(chunks[0]).toEqual({ op: 'chunk', kind: 'char', content: 'a' });
    expect(result).toEqual({ ok: true, value: { echoed: 'abc' } });
  });

  it('swallows an onChunk that throws: the tool goes on and its result is unchanged', async () => {
    const { registry } = setup();
    const errors: unknown[] = [];
    let calls = 0;
    const result = await dispatchToolCall({
      msg: call('Echo', { text: 'abc', stream: true }),
      pid: 3,
      registry,
      onChunk: () => {
        calls += 1;
        throw new Error('UI bug');
      },
      onChunkError: (error) => errors.push(error),
    });
    expect(result).toEqual({ ok: true, value: { echoed: 'abc' } });
    expect(calls).toBe(3);
    expect(errors.map((error) => (error as Error).message)).toEqual(['UI bug', 'UI bug', 'UI bug']);
  });

  it('answers an unknown tool with an error result naming it, never a throw', async () => {
    const { registry } = setup();
    expect(await dispatchToolCall({ msg: call('Nope'), pid: 1, registry })).toEqual({
      ok: false,
      error: { code: 'UNKNOWN_TOOL', message: 'Unknown tool `Nope` (registered: Echo, Boom, Typed)' },
    });
  });

  it('answers bad arguments with INVALID_ARGUMENTS naming the field', async () => {
    const { registry } = setup();
    expect(
      await dispatchToolCall({ msg: call('Echo', { text: 'a', stream: 'yes' }), pid: 1, registry }),
    ).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: 'Invalid arguments of `Echo`: `stream` must be a boolean, got "yes" (string)',
      },
    });
    expect(await dispatchToolCall({ msg: call('Echo', {}), pid: 1, registry })).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: 'Invalid arguments of `Echo`: `text` must be a string, got nothing',
      },
    });
    expect(await dispatchToolCall({ msg: call('Echo', 'text'), pid: 1, registry })).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: 'Invalid arguments of `Echo`: the arguments must be an object, got "text" (string)',
      },
    });
  });

  it('answers a malformed call with INVALID_MESSAGE', async () => {
    const { registry } = setup();
    const cases: [unknown, string][] = [
      [null, 'Invalid tool call: the call must be an object, got null (null)'],
      [{ op: 'tool_call', id: 1 }, 'Invalid tool call: `name` must be a non-empty string, got nothing'],
      [
        { op: 'call', id: 1, name: 'Echo' },
        'Invalid tool call: `op` must be "tool_call", got "call" (string)',
      ],
      [
        { op: 'tool_call', id: 1.5, name: 'Echo' },
        'Invalid tool call: `id` must be a string or an integer, got 1.5 (number)',
      ],
    ];
    for (const [msg, message] of cases) {
      expect(await dispatchToolCall({ msg, pid: 1, registry })).toEqual({
        ok: false,
        error: { code: 'INVALID_MESSAGE', message },
      });
    }
  });

  it('turns a handler that throws into an error result, keeping a SluiceError code', async () => {
    const { registry } = setup();
    expect(await dispatchToolCall({ msg: call('Boom'), pid: 1, registry })).toEqual({
      ok: false,
      error: { code: 'TOOL_FAILED', message: 'Tool `Boom` failed: disk on fire' },
    });
    expect(await dispatchToolCall({ msg: call('Typed'), pid: 1, registry })).toEqual({
      ok: false,
      error: { code: 'TIMEOUT', message: 'Tool `Typed` failed: took too long' },
    });
  });

  it('passes the abort signal to the handler', async () => {
    const registry = createToolRegistry().register({
      name: 'Wait',
      schema: z.object({}),
      handler: (_args, ctx) =>
        new Promise((resolve) =>
          ctx.signal?.addEventListener('abort', () => resolve('aborted'), { once: true }),
        ),
    });
    const controller = new AbortController();
    const pending = dispatchToolCall({ msg: call('Wait'), pid: 1, registry, signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual({ ok: true, value: 'aborted' });
  });

  it('passes the demand to the handler as ctx.demand', async () => {
    const valve = new Valve();
    let seen: unknown;
    const registry = createToolRegistry().register({
      name: 'Look',
      schema: z.object({}),
      handler: (_args, ctx) => {
        seen = ctx.demand;
        return ctx.demand?.paused;
      },
    });
    valve.pause();
    expect(await dispatchToolCall({ msg: call('Look'), pid: 1, registry, demand: valve })).toEqual({
      ok: true,
      value: true,
    });
    expect(seen).toBe(valve);
  });
});

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
