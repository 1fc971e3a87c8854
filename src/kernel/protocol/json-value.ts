import { z } from 'zod';

/**
 * A value that survives `JSON.stringify` / `JSON.parse` unchanged: `null`, a boolean, a finite
 * number, a string, an array of JSON values, or a plain object of JSON values. Chunks, success
 * values and hostcall payloads are JSON values (a Rust host's `serde_json::Value`).
 */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** Where a value stops being JSON, and why. */
interface NonJsonSpot {
  readonly path: (string | number)[];
  readonly value: unknown;
  readonly problem: string;
}

/**
 * A zod schema of exactly the {@link JsonValue}s, reporting the path of the first non-JSON spot;
 * found without recursion (deep input cannot overflow the stack); cycles are rejected.
 */
export const jsonValueSchema: z.ZodType<JsonValue> = z.unknown().superRefine((value, context) => {
  const spot = findNonJson(value);
  if (spot !== undefined) context.addIssue({ code: 'custom', message: spot.problem, path: spot.path });
}) as unknown as z.ZodType<JsonValue>;

function scalarProblem(value: unknown): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'must be a finite number';
  if (typeof value !== 'object') return 'must be a JSON value';
  if (Array.isArray(value)) return undefined;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === null || Object.getPrototypeOf(prototype) === null) return undefined;
  return 'must be a plain object';
}

function findNonJson(root: unknown): NonJsonSpot | undefined {
  const problem = scalarProblem(root);
  if (problem !== undefined) return { path: [], value: root, problem };
  if (typeof root !== 'object' || root === null) return undefined;
  const path: (string | number)[] = [];
  const open = new Set<object>([root]);
  const stack = [{ node: root as Record<string, unknown>, keys: childKeys(root), index: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.index >= top.keys.length) {
      stack.pop();
      open.delete(top.node);
      path.pop();
      continue;
    }
    const key = top.keys[top.index]!;
    top.index += 1;
    const child = top.node[key];
    path.push(key);
    const childProblem = scalarProblem(child);
    if (childProblem !== undefined) return { path, value: child, problem: childProblem };
    if (typeof child !== 'object' || child === null) {
      path.pop();
      continue;
    }
    if (open.has(child)) return { path, value: child, problem: 'must not contain a cycle' };
    open.add(child);
    stack.push({ node: child as Record<string, unknown>, keys: childKeys(child), index: 0 });
  }
  return undefined;
}

function childKeys(node: object): (string | number)[] {
  return Array.isArray(node) ? Array.from(node.keys()) : Object.keys(node);
}
