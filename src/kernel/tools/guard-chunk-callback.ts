import { describeIssue } from '../../core/errors/describe-issue.js';
import { firstIssue } from '../../core/errors/first-issue.js';
import { type ToolChunk, toolChunkSchema } from './tool-chunk.js';

/**
 * Wraps a chunk listener for a tool: each payload is validated (a wrong shape is a `TypeError` for
 * the tool, naming the field), then handed to `listener`; whatever the listener throws is caught
 * here and passed to `onListenerError` (default: ignored), so a misbehaving listener can never
 * crash the tool or change its result. `undefined` stays `undefined`.
 *
 * @example
 * ```ts
 * import { guardChunkCallback } from './guard-chunk-callback.js'; // internal: dispatchToolCall uses it
 * const onChunk = guardChunkCallback(() => { throw new Error('UI bug'); });
 * onChunk?.({ op: 'chunk', kind: 'stdout', content: 'a\n' }); // does not throw
 * ```
 */
export function guardChunkCallback(
  listener: ((chunk: ToolChunk) => void) | undefined,
  onListenerError: (error: unknown) => void = () => {},
): ((chunk: ToolChunk) => void) | undefined {
  if (listener === undefined) return undefined;
  return (chunk) => {
    const parsed = toolChunkSchema.safeParse(chunk);
    if (!parsed.success) {
      throw new TypeError(`Invalid chunk: ${describeIssue(firstIssue(parsed.error, chunk), 'the chunk')}`);
    }
    try {
      listener(parsed.data);
    } catch (error) {
      try {
        onListenerError(error);
      } catch {
        // A reporter that throws is ignored as well: nothing crosses back into the tool.
      }
    }
  };
}
