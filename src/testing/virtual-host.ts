import { type SchedulerLike, VirtualTimeScheduler } from 'rxjs';
import { optionError } from '../core/option-error.js';
import { createBridge } from '../kernel/bridge/bridge.js';
import type { ConnectedExtension } from '../kernel/bridge/connect-extension.js';
import { createExtensionApi } from '../kernel/bridge/extension-api.js';
import { createHost } from '../kernel/host/create-host.js';
import type { Host, StreamProducer } from '../kernel/host/host.js';
import type { HostcallOutcome } from '../kernel/protocol/hostcall-outcome.js';
import {
  createMacrotaskScheduler,
  type MacrotaskScheduler,
} from '../kernel/scheduler/macrotask-scheduler.js';
import { advanceVirtualTime } from './advance-virtual-time.js';
import { type DeliveryRow, toDeliveryRow } from './delivery-row.js';
import { type FakeExec, fakeExec } from './fake-exec.js';
import { fakeExecProducer } from './fake-exec-producer.js';
import { type ScriptedStep, scriptedProducer } from './scripted-producer.js';
import { checkVirtualHostOptions, type VirtualHostOptions } from './virtual-host-options.js';

/** The kernel host and bridge on a virtual clock (see {@link createVirtualHost}). */
export interface VirtualHost {
  /** The real kernel host. */
  readonly host: Host;
  /** The virtual clock (the `clock` option, or a new `VirtualTimeScheduler`). */
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
 * The kernel's host and bridge (docs/protocol.md) on a virtual clock, for testing extension code written
 * against `api.exec(…, { stream: true })` without a real process: scripted producers per call
 * (`script(callId, steps)`) or a {@link fakeExec} behind the real `exec` source, the macrotask
 * queue stepped `tick()` by `tick()`, the clock moved with `advance(ms)`, and everything delivered
 * recorded as rows like those of docs/protocol.md's tables (`delivered`). The host is real: bounded channel, stall timer,
 * cancel, unload, sequence numbers — only time and processes are fake.
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
  let counter = 0;
  const names = Array.isArray(callIds) ? [...callIds] : undefined;
  const numbered = (): string => {
    counter += 1;
    return `${extensionId}:hc-${counter}`;
  };
  return typeof callIds === 'function' ? callIds : () => names?.shift() ?? numbered();
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
