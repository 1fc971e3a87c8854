import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDefinition } from '../kernel/index.js';

/**
 * A tool as `tools/list` shows it: the draft-7 JSON Schema of its `schema` (as input) and
 * `outputSchema`, nullable fields as `anyOf` rather than a `type` array (which one-type dialects,
 * such as Gemini's, reject). A schema that is not an object, or that JSON Schema cannot express,
 * is a `TypeError` naming the tool.
 */
export function toMcpTool(tool: ToolDefinition): Tool {
  const inputSchema = objectSchema(tool, 'schema', 'input');
  const outputSchema =
    tool.outputSchema === undefined ? undefined : objectSchema(tool, 'outputSchema', 'output');
  return {
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
  };
}

function objectSchema(
  tool: ToolDefinition,
  field: 'schema' | 'outputSchema',
  io: 'input' | 'output',
): Tool['inputSchema'] {
  let json: Record<string, unknown>;
  try {
    json = splitTypeArrays(z.toJSONSchema(tool[field] as z.ZodType, { target: 'draft-7', io })) as Record<
      string,
      unknown
    >;
  } catch (error) {
    throw new TypeError(
      `The \`${field}\` of tool \`${tool.name}\` has no JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (json.type !== 'object') {
    throw new TypeError(
      `Expected the \`${field}\` of tool \`${tool.name}\` to be a zod object schema (MCP tools take and give objects), got JSON Schema type \`${String(json.type)}\``,
    );
  }
  return json as Tool['inputSchema'];
}

/** `{ type: ['string', 'null'] }` → `{ anyOf: [{ type: 'string' }, { type: 'null' }] }` everywhere in `node`. */
function splitTypeArrays(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(splitTypeArrays);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' && Array.isArray(value)) out.anyOf = value.map((type) => ({ type }));
    else
      out[key] =
        key === 'enum' || key === 'const' || key === 'default' || key === 'examples'
          ? value
          : splitTypeArrays(value);
  }
  return out;
}
