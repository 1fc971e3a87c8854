import { optionError } from '../../core/option-error.js';
import { createExecTool } from './exec-tool.js';
import type { ExecToolConfig } from './exec-tool-args.js';
import type { ToolDefinition } from './tool.js';

/** Tools by name. `register` refuses a second tool with the same name. */
export interface ToolRegistry {
  /** Adds a tool; throws a `TypeError` for a bad definition or a name already taken. Returns the registry. */
  register(tool: ToolDefinition): ToolRegistry;
  /** The tool called `name`, if any. */
  get(name: string): ToolDefinition | undefined;
  /** The registered names, in registration order. */
  names(): string[];
}

/**
 * Creates an empty {@link ToolRegistry}.
 *
 * @example
 * ```ts
 * import { createToolRegistry, registerBuiltinTools } from 'sluice/kernel';
 * const registry = registerBuiltinTools(createToolRegistry()); // has 'Exec'
 * ```
 */
export function createToolRegistry(): ToolRegistry {
  const tools = new Map<string, ToolDefinition>();
  const registry: ToolRegistry = {
    register(tool) {
      if (typeof tool?.name !== 'string' || tool.name === '') {
        throw optionError('name', 'a non-empty string', tool?.name, 'field of a tool');
      }
      if (typeof tool.schema?.safeParse !== 'function') {
        throw optionError('schema', 'a zod schema', tool.schema, `field of tool \`${tool.name}\``);
      }
      if (tool.description !== undefined && typeof tool.description !== 'string') {
        throw optionError('description', 'a string', tool.description, `field of tool \`${tool.name}\``);
      }
      if (tool.outputSchema !== undefined && typeof tool.outputSchema?.safeParse !== 'function') {
        throw optionError(
          'outputSchema',
          'a zod schema',
          tool.outputSchema,
          `field of tool \`${tool.name}\``,
        );
      }
      if (typeof tool.handler !== 'function') {
        throw optionError('handler', 'a function', tool.handler, `field of tool \`${tool.name}\``);
      }
      if (tools.has(tool.name)) throw new TypeError(`A tool named \`${tool.name}\` is already registered`);
      tools.set(tool.name, tool);
      return registry;
    },
    get: (name) => tools.get(name),
    names: () => [...tools.keys()],
  };
  return registry;
}

/**
 * Registers the kernel's built-in tools — today `Exec` ({@link createExecTool}) — and returns the
 * registry.
 *
 * @example
 * ```ts
 * import { createToolRegistry, registerBuiltinTools } from 'sluice/kernel';
 * const registry = registerBuiltinTools(createToolRegistry());
 * registry.names(); // ['Exec']
 * ```
 */
export function registerBuiltinTools(registry: ToolRegistry, config: ExecToolConfig = {}): ToolRegistry {
  return registry.register(createExecTool(config));
}
