import { createExecTool } from './exec-tool.js';
import type { ExecToolConfig } from './to-exec-options.js';
import type { ToolRegistry } from './tool-registry.js';

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
