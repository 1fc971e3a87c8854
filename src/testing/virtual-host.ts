import { map, type SchedulerLike, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { isSchedulerLike } from '../core/is-scheduler-like.js';
import { optionError } from '../core/option-error.js';
import { readOption } from '../core/read-option.js';
import { rejectUnknownOptions } from '../core/reject-unknown-options.js';
import { createBridge } from '../kernel/bridge/bridge.js';
import type { ConnectedExtension } from '../kernel/bridge/connect-extension.js';
import { createExtensionApi } from '../kernel/bridge/extension-api.js';
import { createHost } from '../kernel/host/create-host.js';
import { type ExecPayload, execEventToChunk, execPayloadOptions } from '../kernel/host/exec-hostcall.js';
import type { Host, HostcallHandler, StreamProducer } from '../kernel/host/host.js';
import type { HostcallOutcome } from '../kernel/protocol/hostcall-outcome.js';
import type { HostcallKind } from '../kernel/protocol/hostcall-request.js';
import type { JsonValue } from '../kernel/protocol/json-value.js';
import {
  createMacrotaskScheduler,
  type Macrotask,
  type MacrotaskScheduler,
} from '../kernel/scheduler/macrotask-scheduler.js';
import { exec } from '../sources/exec.js';
import type { FakeProcessScript } from './compile-script.js';
import { type FakeExec, fakeExec } from './fake-exec.js';
import { type ScriptedStep, scriptedProducer } from './scripted-producer.js';

/** Options of {@link createVirtualHost}. */
export interface VirtualHostOptions {
  /** The virtual clock. Default: a new `VirtualTimeScheduler` (give your `TestScheduler` inside `run`). */
  readonly clock?: SchedulerLike;
  /** `'manual'` (default): only `tick()` delivers, one macrotask at a time; `'clock'`: the queue drains on the clock. */
  readonly driver?: 'manual' | 'clock';
  /** The fake process (or its script, on this clock) the real `exec` runs for unscripted streaming calls. */
  readonly exec?: FakeExec | FakeProcessScript;
  /** Producers replacing the scripted ones (`exec` / `http`). */
  readonly producers?: Partial<Record<'exec' | 'http', StreamProducer>>;
  /** Handlers of non-streaming calls (by kind). */
  readonly handlers?: Partial<Record<HostcallKind, HostcallHandler>>;
}

/** The kernel host and bridge on a virtual clock (see {@link createVirtualHost}). */
export interface VirtualHost {
  readonly host: Host;
  readonly clock: SchedulerLike;
  /** The host's macrotask queue, stepped by {@link tick}. */
  readonly scheduler: MacrotaskScheduler<HostcallOutcome>;
  /** The fake process behind streaming `exec` calls, if `exec` was given. */
  readonly fake: FakeExec | undefined;
  /** Every delivered macrotask, in delivery order. */
  readonly delivered: readonly DeliveryRow[];
  /** The host's warnings (stall messages). */
  readonly logs: readonly string[];
  /** Per scripted call: `subscribe@t`, `pause@t`, `resume@t`, `unsubscribe@t`. */
  readonly traces: Readonly<Record<string, readonly string[]>>;
  /** Connects an extension; `callIds` (a list or a function) names its calls (default `${id}:hc-1`, …). */
  extension(
    extensionId: string,
    options?: { readonly callIds?: readonly string[] | (() => string) },
  ): ConnectedExtension;
  /** Scripts the producer of the streaming call `callId` (steps at absolute clock times). */
  script(callId: string, steps: readonly ScriptedStep[]): void;
  /** Delivers up to `count` macrotasks (default 1); returns how many. */
  tick(count?: number): number;
  /** Delivers until the queue is empty; returns how many. */
  runUntilIdle(): number;
  /** Moves the clock `ms` forward, running what is due (producers, stall timers, the `'clock'` driver). */
  advance(ms: number): void;
  /** Lets promise continuations (an `await`, a `for await` step) run: `await vhost.settle()`. */
  settle(): Promise<void>;
  /** Ticks and advances, settling in between, until nothing is queued or scheduled. */
  play(): Promise<void>;
}

const SETTLE_TURNS = 50;

/**
 * The real kernel host and bridge (docs/protocol.md) on a virtual clock, for testing code written
 * against `api.exec(…, { stream: true })`: scripted producers or a {@link fakeExec} behind them,
 * the queue stepped by `tick()`, the clock by `advance(ms)`, deliveries recorded as rows.
 *
 * @example
 * ```ts
 * import { createVirtualHost } from 'sluice/testing';
 * const vhost = createVirtualHost();
 * const { api } = vhost.extension('ext-a', { callIds: ['hc-42'] });
 * vhost.script('hc-42', [{ at: 10, chunk: 'line 1\n' }, { at: 20, chunk: 'done\n', final: true }]);
 * const stream = api.exec('make', { stream: true });
 * stream.subscribe((event) => console.log(event.content));
 * vhost.advance(20);
 * vhost.runUntilIdle(); // logs 'line 1\n', 'done\n'
 * ```
 */
export function createVirtualHost(options: VirtualHostOptions = {}): VirtualHost {
  checkVirtualHostOptions(options);
  const clock = options.clock ?? new VirtualTimeScheduler();
  const scheduler = createMacrotaskScheduler<HostcallOutcome>({
    clock,
    driver: options.driver === 'clock' ? clock : 'manual',
  });
  const delivered: DeliveryRow[] = [];
  const logs: string[] = [];
  const traces: Record<string, string[]> = {};
  const scripts = new Map<string, readonly ScriptedStep[]>();
  const fake =
    options.exec === undefined || 'spawn' in options.exec
      ? options.exec
      : fakeExec(options.exec, { scheduler: clock });
  const fallback = fake === undefined ? undefined : fakeExecProducer(fake);
  const scripted =
    (kind: 'exec' | 'http'): StreamProducer =>
    (payload, context) => {
      const steps = scripts.get(context.callId);
      if (steps === undefined) {
        if (kind === 'exec' && fallback !== undefined) return fallback(payload, context);
        throw Object.assign(new Error(`No script for the streaming call \`${context.callId}\``), {
          code: 'UNSCRIPTED',
        });
      }
      const trace: string[] = traces[context.callId] ?? [];
      traces[context.callId] = trace;
      return scriptedProducer(steps, clock, (event, time) => {
        if (event !== 'emit') trace.push(`${event}@${time}`);
      });
    };
  const host = createHost({
    scheduler,
    logger: { warn: (message) => logs.push(message) },
    producers: { exec: scripted('exec'), http: scripted('http'), ...options.producers },
    handlers: options.handlers ?? {},
  });

  const advance = (ms: number): void => advanceVirtualTime(clock as VirtualTimeScheduler, ms);
  const settle = async (): Promise<void> => {
    for (let turn = 0; turn < SETTLE_TURNS; turn += 1) await Promise.resolve();
  };

  const vhost: VirtualHost = {
    host,
    clock,
    scheduler,
    fake,
    delivered,
    logs,
    traces,
    extension(extensionId, { callIds } = {}) {
      const nextId = callIdSource(extensionId, callIds);
      let bridge: ReturnType<typeof createBridge> | undefined;
      const connection = host.connect(extensionId, (task) => {
        delivered.push(toDeliveryRow(task));
        bridge?.completeHostcall(task.callId, task.outcome);
      });
      bridge = createBridge({ ...connection, callIds: nextId });
      return { extensionId, bridge, api: createExtensionApi(bridge), disconnect: connection.disconnect };
    },
    script(callId, steps) {
      if (!Array.isArray(steps)) throw optionError('steps', 'an array of scripted steps', steps, 'argument');
      scripts.set(callId, steps);
    },
    tick(count = 1) {
      let ticks = 0;
      while (ticks < count && scheduler.tick()) ticks += 1;
      return ticks;
    },
    runUntilIdle: () => scheduler.runUntilIdle(),
    advance,
    settle,
    play: () => playToEnd(scheduler, clock as VirtualTimeScheduler, settle),
  };
  return vhost;
}

/** The call ids of one extension: `callIds` given as a function or a list (then numbered), or numbered. */
function callIdSource(
  extensionId: string,
  callIds: readonly string[] | (() => string) | undefined,
): () => string {
  if (typeof callIds === 'function') return callIds;
  const names = [...(callIds ?? [])];
  let counter = 0;
  return () => names.shift() ?? `${extensionId}:hc-${++counter}`;
}

/** Delivers and advances the clock to each next timer until nothing is left to do. */
async function playToEnd(
  scheduler: MacrotaskScheduler<HostcallOutcome>,
  clock: VirtualTimeScheduler,
  settle: () => Promise<void>,
): Promise<void> {
  for (;;) {
    await settle();
    if (scheduler.tick()) continue;
    const next = clock.actions?.[0];
    if (next === undefined) return;
    advanceVirtualTime(clock, Math.max(0, (next.delay ?? 0) - clock.now()));
  }
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null;
const functions = (value: unknown) =>
  isObject(value) && Object.values(value as object).every((item) => typeof item === 'function');
const OPTIONS: Record<string, readonly [(value: unknown) => boolean, string]> = {
  clock: [isSchedulerLike, 'a SchedulerLike'],
  driver: [(value) => value === 'manual' || value === 'clock', "'manual' or 'clock'"],
  exec: [isObject, 'a FakeExec or a fake process script'],
  producers: [functions, 'an object of functions'],
  handlers: [functions, 'an object of functions'],
};

/** The options of {@link createVirtualHost}, checked before anything is created. */
function checkVirtualHostOptions(options: VirtualHostOptions): void {
  if (!isObject(options)) throw optionError('options', 'an object', options, 'argument');
  rejectUnknownOptions(options, Object.keys(OPTIONS));
  for (const [name, [accepts, expected]] of Object.entries(OPTIONS)) {
    readOption(options, name, accepts, expected, undefined);
  }
}

/** One delivered macrotask as a row of the tables of docs/protocol.md. */
export type DeliveryRow = { readonly seq: number; readonly extensionId: string; readonly callId: string } & (
  | { readonly sequence: number; readonly chunk: JsonValue; readonly isFinal: boolean }
  | { readonly error: { readonly code: string; readonly message: string } }
  | { readonly value: JsonValue }
);

/**
 * Turns a delivered macrotask into a {@link DeliveryRow}.
 *
 * @example
 * ```ts
 * host.connect('ext-a', (task) => rows.push(toDeliveryRow(task)));
 * ```
 */
export function toDeliveryRow({
  seq,
  extensionId,
  callId,
  outcome,
}: Macrotask<HostcallOutcome>): DeliveryRow {
  const row = { seq, extensionId, callId };
  if (outcome.type === 'error') return { ...row, error: { code: outcome.code, message: outcome.message } };
  if (outcome.type !== 'streamChunk') return { ...row, value: outcome.value };
  return { ...row, sequence: outcome.sequence, chunk: outcome.chunk, isFinal: outcome.isFinal };
}

/**
 * The kernel's streaming `exec` producer on a fake process: the real {@link exec} source on `fake`,
 * mapped to wire chunks as the default producer maps them; each hostcall spawns the script once.
 *
 * @example
 * ```ts
 * const fake = fakeExec({ stdout: '-a-b|' }, { scheduler: clock });
 * const host = createHost({ scheduler, producers: { exec: fakeExecProducer(fake) } });
 * ```
 */
export function fakeExecProducer(fake: FakeExec): StreamProducer {
  return (raw, context) => {
    const payload = raw as unknown as ExecPayload;
    const options = { ...execPayloadOptions(payload, context.scheduler, true), port: fake };
    return exec(payload.cmd, payload.args ?? [], options).pipe(map(execEventToChunk));
  };
}

/**
 * Moves a `VirtualTimeScheduler` exactly `ms` forward, running what is due in time order; `now()`
 * ends at the target even if nothing was due. For tests outside `TestScheduler.run` (which is
 * refused: use its `flush`), with `await`s in between for promise-based consumers.
 *
 * @example
 * ```ts
 * import { VirtualTimeScheduler } from 'rxjs';
 * import { advanceVirtualTime } from 'sluice/testing';
 * const clock = new VirtualTimeScheduler();
 * clock.schedule(() => console.log('at', clock.now()), 10);
 * advanceVirtualTime(clock, 25); // logs 'at 10'; clock.now() === 25
 * ```
 */
export function advanceVirtualTime(clock: VirtualTimeScheduler, ms: number): void {
  if (!(clock instanceof VirtualTimeScheduler) || clock instanceof TestScheduler) {
    throw optionError('clock', 'a VirtualTimeScheduler (not a TestScheduler)', clock, 'argument');
  }
  if (!Number.isInteger(ms) || ms < 0) throw optionError('ms', 'a non-negative integer', ms, 'argument');
  const target = clock.now() + ms;
  clock.schedule(() => {}, ms);
  const { maxFrames } = clock;
  clock.maxFrames = target;
  try {
    clock.flush();
  } finally {
    clock.maxFrames = maxFrames;
  }
}
