import { describeValue } from '../describe-value.js';

/**
 * One problem found in JSON that arrived from outside (a wire frame, a hostcall payload, tool
 * arguments, a runner line, an SSE message): where, what was there, and what is wrong.
 */
export interface FieldIssue {
  /** The dotted path of the field (`outcome.value.items[2]`), or `''` for the value as a whole. */
  readonly field: string;
  /** The offending value (`undefined` when the field is missing). */
  readonly value: unknown;
  /** What is wrong, phrased to follow the field name: `must be a boolean`, `is required`. */
  readonly problem: string;
}

/**
 * The one wording for a problem in JSON from outside: ``` `payload.stream` must be a boolean, got
 * "yes" (string) ```; `whole` names the value itself when `field` is `''`.
 */
export function describeIssue(issue: FieldIssue, whole: string): string {
  const where = issue.field === '' ? whole : `\`${issue.field}\``;
  return `${where} ${issue.problem}, got ${describeValue(issue.value, 'json')}`;
}
