import { describeIssue } from '../../core/errors/describe-issue.js';
import { firstIssue } from '../../core/errors/first-issue.js';
import { jsonNestsDeeper } from '../protocol/json-depth.js';
import { type RunnerMessage, runnerMessageSchema } from './runner-message.js';

const OPS = ['chunk', 'tool_call', 'result'];
/** As deep as a wire frame may nest (serde_json's limit): deeper lines are refused unparsed. */
const MAX_DEPTH = 128;

/**
 * Decodes one NDJSON line from a runner. Never throws: a line that is not JSON, not an object,
 * has an unknown `op` or a bad field gives `{ ok: false, problem }` with a message naming it; a line
 * nested deeper than 128 levels is refused before it is parsed (in time linear in its length).
 *
 * @example
 * ```ts
 * import { parseRunnerLine } from 'sluice/kernel';
 * parseRunnerLine('{"op":"chunk","kind":"token","content":"hi"}'); // { ok: true, message: { … } }
 * parseRunnerLine('hello'); // { ok: false, problem: 'Not JSON: Unexpected token …' }
 * ```
 */
export function parseRunnerLine(
  line: string,
): { ok: true; message: RunnerMessage } | { ok: false; problem: string } {
  if (jsonNestsDeeper(line, MAX_DEPTH)) {
    return { ok: false, problem: `Nests arrays and objects deeper than ${MAX_DEPTH} levels` };
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, problem: `Not JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'Expected a JSON object' };
  }
  const op = (value as { op?: unknown }).op;
  if (typeof op !== 'string' || !OPS.includes(op)) {
    return {
      ok: false,
      problem: `Unknown op ${JSON.stringify(op) ?? 'nothing'} (expected ${OPS.join(', ')})`,
    };
  }
  const parsed = runnerMessageSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      problem: `Invalid message: ${describeIssue(firstIssue(parsed.error, value), 'the message')}`,
    };
  }
  return { ok: true, message: parsed.data };
}
