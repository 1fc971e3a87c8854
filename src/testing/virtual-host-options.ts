import type { SchedulerLike } from 'rxjs';
import { isSchedulerLike } from '../core/is-scheduler-like.js';
import { optionError } from '../core/option-error.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import type { HostcallHandler, StreamProducer } from '../kernel/host/host.js';
import type { HostcallKind } from '../kernel/protocol/hostcall-request.js';
import type { FakeExec } from './fake-exec.js';
import type { FakeProcessScript } from './fake-process-script.js';

/** Options of {@link createVirtualHost}. Validated before anything is created. */
export interface VirtualHostOptions {
  /** The virtual clock. Default: a new `VirtualTimeScheduler` (give your `TestScheduler` inside `run`). */
  readonly clock?: SchedulerLike;
  /** `'manual'` (default): only `tick()` delivers, one macrotask at a time; `'clock'`: the queue drains on the clock. */
  readonly driver?: 'manual' | 'clock';
  /**
   * What streaming `exec` calls without a `script()` run: the real `exec` source on this fake
   * process — a {@link FakeExec}, or a script for one on this host's clock (then `vhost.fake`).
   */
  readonly exec?: FakeExec | FakeProcessScript;
  /** Producers replacing the scripted ones (`exec` / `http`). */
  readonly producers?: Partial<Record<'exec' | 'http', StreamProducer>>;
  /** Handlers of non-streaming calls (by kind). */
  readonly handlers?: Partial<Record<HostcallKind, HostcallHandler>>;
}

/**
 * Validates the options of {@link createVirtualHost} before anything is created: a `TypeError`
 * naming the field ("Expected the `driver` option to be 'manual' or 'clock', got `auto` (string)").
 */
export function checkVirtualHostOptions(options: VirtualHostOptions): void {
  if (typeof options !== 'object' || options === null)
    throw optionError('options', 'an object', options, 'argument');
  rejectUnknownOptions(options, ['clock', 'driver', 'exec', 'producers', 'handlers']);
  const isObject = (value: unknown) => typeof value === 'object' && value !== null;
  const functions = (value: unknown) =>
    isObject(value) && Object.values(value as object).every((item) => typeof item === 'function');
  readOption(options, 'clock', isSchedulerLike, 'a SchedulerLike', undefined);
  readOption(
    options,
    'driver',
    (value) => value === 'manual' || value === 'clock',
    "'manual' or 'clock'",
    undefined,
  );
  readOption(options, 'exec', isObject, 'a FakeExec or a fake process script', undefined);
  readOption(options, 'producers', functions, 'an object of functions', undefined);
  readOption(options, 'handlers', functions, 'an object of functions', undefined);
}
