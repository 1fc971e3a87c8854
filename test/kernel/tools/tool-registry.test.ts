import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolRegistry } from '../../../src/kernel/tools/tool-registry.js';

describe('createToolRegistry', () => {
  it('registers, finds and lists tools in order', () => {
    const a = { name: 'A', schema: z.object({}), handler: () => 1 };
    const b = { name: 'B', schema: z.object({}), handler: () => 2 };
    const registry = createToolRegistry().register(a).register(b);
    expect(registry.get('A')).toBe(a);
    expect(registry.get('C')).toBeUndefined();
    expect(registry.names()).toEqual(['A', 'B']);
  });

  it('refuses a duplicate name and bad definitions with a TypeError', () => {
    const registry = createToolRegistry().register({ name: 'A', schema: z.object({}), handler: () => 1 });
    expect(() => registry.register({ name: 'A', schema: z.object({}), handler: () => 2 })).toThrow(
      new TypeError('A tool named `A` is already registered'),
    );
    expect(() => registry.register({ name: '', schema: z.object({}), handler: () => 2 })).toThrow(
      new TypeError('Expected the `name` field of a tool to be a non-empty string, got `` (string)'),
    );
    expect(() => registry.register({ name: 'B', schema: {} as z.ZodType, handler: () => 2 })).toThrow(
      new TypeError('Expected the `schema` field of tool `B` to be a zod schema, got `{}` (object)'),
    );
    expect(() => registry.register({ name: 'B', schema: z.object({}), handler: 'x' as never })).toThrow(
      new TypeError('Expected the `handler` field of tool `B` to be a function, got `x` (string)'),
    );
    expect(() =>
      registry.register({ name: 'B', schema: z.object({}), description: 3 as never, handler: () => 2 }),
    ).toThrow(new TypeError('Expected the `description` field of tool `B` to be a string, got `3` (number)'));
    expect(() =>
      registry.register({ name: 'B', schema: z.object({}), outputSchema: {} as z.ZodType, handler: () => 2 }),
    ).toThrow(
      new TypeError('Expected the `outputSchema` field of tool `B` to be a zod schema, got `{}` (object)'),
    );
  });
});
