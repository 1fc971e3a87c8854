import { optionError } from '../../core/option-error.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import type { HostcallOutcome } from '../protocol/hostcall-outcome.js';
import type { MacrotaskScheduler } from '../scheduler/macrotask-scheduler.js';
import { defaultHandlers } from './default-handlers.js';
import { defaultProducers } from './default-producers.js';
import type { HostLogger } from './host-logger.js';
import type { HostOptions } from './host-options.js';
import type { HostcallHandler } from './hostcall-handler.js';
import type { StreamProducer } from './stream-producer.js';

/** {@link HostOptions} validated, with the defaults filled in (the scheduler stays optional). */
export interface ResolvedHostOptions {
  readonly scheduler: MacrotaskScheduler<HostcallOutcome> | undefined;
  readonly logger: HostLogger;
  readonly producers: Readonly<Record<string, StreamProducer>>;
  readonly handlers: Map<string, HostcallHandler>;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Validates the options of {@link createHost} before anything is created; a bad one throws a
 * `TypeError` naming it ("Expected the `logger` option to be a logger, got `5` (number)").
 * (Internal to the host.)
 *
 * @example
 * ```ts
 * const { logger, producers, handlers } = readHostOptions({ logger: console });
 * ```
 */
export function readHostOptions(options: HostOptions): ResolvedHostOptions {
  rejectUnknownOptions(options, ['scheduler', 'logger', 'producers', 'handlers']);
  const scheduler = readOption(options, 'scheduler', isObject, 'a MacrotaskScheduler', undefined) as
    | MacrotaskScheduler<HostcallOutcome>
    | undefined;
  const logger = readOption(options, 'logger', isObject, 'a logger', console) as HostLogger;
  const producers: Record<string, StreamProducer> = {
    ...defaultProducers,
    ...(readOption(options, 'producers', isObject, 'an object of producers', {}) as object),
  };
  for (const [kind, producer] of Object.entries(producers)) {
    if (typeof producer !== 'function') throw optionError(`producers.${kind}`, 'a function', producer);
  }
  const handlers = new Map<string, HostcallHandler>(
    Object.entries({
      ...defaultHandlers,
      ...(readOption(options, 'handlers', isObject, 'an object of handlers', {}) as object),
    }),
  );
  for (const [kind, handler] of handlers) {
    if (typeof handler !== 'function') throw optionError(`handlers.${kind}`, 'a function', handler);
  }
  return { scheduler, logger, producers, handlers };
}
