import { z } from 'zod';
import { describeIssue } from '../../core/errors/describe-issue.js';
import { firstIssue } from '../../core/errors/first-issue.js';
import { jsonNestsDeeper } from '../protocol/json-scan.js';
import { type ToolResult, toolChunkSchema } from '../tools/tool.js';

/**
 * The messages a runner may send, one JSON object per line (docs/protocol.md, "Runners and the
 * supervisor"). Any `tool_call` object passes here: `dispatchToolCall` checks it and answers errors.
 */
const runnerMessageSchema = z.discriminatedUnion('op', [
  toolChunkSchema,
  z.looseObject({ op: z.literal('tool_call') }),
  z.object({ op: z.literal('result'), value: z.unknown() }),
]);

/** A validated runner message (see {@link runnerMessageSchema}). */
export type RunnerMessage = z.infer<typeof runnerMessageSchema>;

const OPS = ['chunk', 'tool_call', 'result'];
/** As deep as a wire frame may nest (serde_json's limit): deeper lines are refused unparsed. */
const MAX_DEPTH = 128;

/**
 * Decodes one NDJSON line from a runner; never throws: a bad line gives `{ ok: false, problem }`
 * naming what is wrong, and one nested deeper than 128 levels is refused unparsed.
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

/**
 * Joins the pieces `exec` cut a line longer than its `maxLineBytes` into: the whole line goes to
 * `onLine` with `overlong: true` (the supervisor reports it as malformed).
 */
export class LineJoiner {
  readonly #onLine: (text: string, overlong: boolean) => void;
  #pending: { text: string; overlong: boolean } | undefined;

  constructor(onLine: (text: string, overlong: boolean) => void) {
    this.#onLine = onLine;
  }

  /** One piece of a line; `partial` when the source cut the line there. */
  push(text: string, partial: boolean): void {
    const joined = (this.#pending?.text ?? '') + text;
    const overlong = this.#pending?.overlong === true || partial;
    if (partial && !text.endsWith('\n')) {
      this.#pending = { text: joined, overlong };
      return;
    }
    this.#pending = undefined;
    this.#onLine(joined, overlong);
  }

  /** Hands out what is left of an unfinished line (the runner exited in the middle of it). */
  flush(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending !== undefined) this.#onLine(pending.text, pending.overlong);
  }
}

/**
 * The `{ op: 'tool_result', id, result }` line; a result that is not JSON is answered with a
 * `TOOL_FAILED` error instead, so the runner always gets an answer.
 */
export function toolResultLine(id: string | number | null, result: ToolResult): string {
  try {
    return JSON.stringify({ op: 'tool_result', id, result });
  } catch (error) {
    const problem = { code: 'TOOL_FAILED', message: `Result is not JSON: ${(error as Error).message}` };
    return JSON.stringify({ op: 'tool_result', id, result: { ok: false, error: problem } });
  }
}
