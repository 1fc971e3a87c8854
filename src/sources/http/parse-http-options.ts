import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { Demand } from '../../core/demand.js';
import { describeValue } from '../../core/describe-value.js';
import { lazySchema } from '../../core/lazy-zod.js';
import { MAX_DELAY_MS } from '../../core/max-delay-ms.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import type { HttpOptions } from './http-types.js';

/** {@link HttpOptions} with every default applied (`demand` stays optional: it is resolved at subscribe). */
export interface ResolvedHttpOptions {
  readonly lines: boolean;
  readonly maxLineBytes: number;
  readonly timeoutMs: number;
  readonly reject: boolean;
  readonly scheduler: SchedulerLike;
  readonly demand: Demand | undefined;
  readonly fetch: typeof globalThis.fetch;
  readonly cancelSignal: AbortSignal | undefined;
}

const isFunction = (value: unknown): boolean => typeof value === 'function';
const hasMethods = (value: unknown, ...names: string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  names.every((name) => isFunction((value as Record<string, unknown>)[name]));

/** The option names, for the unknown-option check (known without loading zod). */
const KNOWN = [
  'lines',
  'maxLineBytes',
  'timeoutMs',
  'reject',
  'scheduler',
  'demand',
  'fetch',
  'cancelSignal',
] as const;

/** Built with zod on the first `http()` call (see lazy-zod.ts). */
const validation = lazySchema((z) => {
  /** Each option: its schema, and what the error message says it should be. */
  const FIELDS = {
    lines: [z.boolean(), 'a boolean'],
    maxLineBytes: [z.number().int().positive().max(Number.MAX_SAFE_INTEGER), 'a positive integer'],
    timeoutMs: [z.number().int().nonnegative().max(MAX_DELAY_MS), 'a non-negative integer'],
    reject: [z.boolean(), 'a boolean'],
    scheduler: [z.custom<SchedulerLike>((v) => hasMethods(v, 'now', 'schedule')), 'a SchedulerLike'],
    demand: [
      z.custom<Demand>((v) => hasMethods(v, 'onChange') && typeof (v as Demand).paused === 'boolean'),
      'a Demand (`paused` and `onChange()`)',
    ],
    fetch: [z.custom<typeof globalThis.fetch>(isFunction), 'a function'],
    cancelSignal: [z.instanceof(AbortSignal), 'an AbortSignal'],
  } as const;

  const schema = z.strictObject(
    Object.fromEntries(Object.entries(FIELDS).map(([name, [field]]) => [name, field.optional()])),
  );
  return { FIELDS, schema };
});

/**
 * Validates the options of {@link http} with zod and applies the defaults. Throws a `TypeError`
 * naming the first bad option, in execa's template.
 *
 * @example
 * ```ts
 * parseHttpOptions({ timeoutMs: -1 });
 * // TypeError: Expected the `timeoutMs` option to be a non-negative integer, got `-1` (number)
 * ```
 */
export function parseHttpOptions(options: HttpOptions | undefined): ResolvedHttpOptions {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`Expected the \`options\` argument to be an object, got ${describeValue(options)}`);
  }
  rejectUnknownOptions(options, KNOWN);
  const { FIELDS, schema } = validation();
  const result = schema.safeParse(options);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0]) as (typeof KNOWN)[number];
    const value = (options as Record<string, unknown>)[name];
    const bound = issue?.code === 'too_big' ? ` up to ${issue.maximum}` : '';
    throw new TypeError(
      `Expected the \`${name}\` option to be ${FIELDS[name][1]}${bound}, got ${describeValue(value)}`,
    );
  }
  // The validated originals, not zod's copies: a scheduler or a Valve must keep its prototype.
  return {
    lines: options.lines ?? false,
    maxLineBytes: options.maxLineBytes ?? 65_536,
    timeoutMs: options.timeoutMs ?? 0,
    reject: options.reject ?? true,
    scheduler: options.scheduler ?? asyncScheduler,
    demand: options.demand,
    fetch: options.fetch ?? globalThis.fetch,
    cancelSignal: options.cancelSignal,
  };
}
