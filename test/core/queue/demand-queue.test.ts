import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Valve } from '../../../src/core/demand.js';
import {
  DemandQueue,
  type DemandQueueOptions,
  type QueueEnding,
  type QueueStore,
} from '../../../src/core/queue/demand-queue.js';
import type { QueueOutlet } from '../../../src/core/queue/queue-outlet.js';
import { Credit, DemandGate, InFlight } from '../../../src/core/queue/queue-outlet.js';
import { RingQueue } from '../../../src/core/queue/ring-queue.js';
import { bounded } from '../../../src/operators/bounded.js';
import { scriptedProducer, withDemand } from '../../../src/testing/index.js';
import { newTestScheduler } from '../../support/test-scheduler.js';

/**
 * What a user composes, as the configurations these tests vary: a `DemandQueue` with a
 * {@link Credit} (when `credit` is given), a {@link DemandGate} (when `gate` is), an
 * {@link InFlight} (always: `hold`/`release` drive it; with `holdDelivered` every value that goes
 * out is held too), and an overfill hook on `push`, as the adapters and the kernel's host add it.
 */
interface Composition<T> extends DemandQueueOptions<T> {
  readonly credit?: number;
  readonly gate?: Valve | undefined;
  readonly followGate?: boolean;
  readonly holdDelivered?: boolean;
  readonly overfill?: { readonly at: number; readonly call: (waiting: number) => void } | undefined;
}

/** Two outlets as one: open while both are (a queue takes one outlet; this composes them). */
function bothOutlets(first: QueueOutlet, second: QueueOutlet): QueueOutlet {
  return {
    get open() {
      return first.open && second.open;
    },
    get held() {
      return first.held + second.held;
    },
    get holdsProducer() {
      return first.holdsProducer || second.holdsProducer;
    },
    sent: () => {
      first.sent();
      second.sent();
    },
    watch: (queue) => {
      const stopFirst = first.watch(queue);
      const stopSecond = second.watch(queue);
      return () => {
        stopFirst();
        stopSecond();
      };
    },
  };
}

function composeQueue<T>(options: Composition<T>) {
  const credit = options.credit === undefined ? undefined : new Credit(options.credit);
  const inFlight = new InFlight();
  const outlets: QueueOutlet[] = [];
  if (options.gate !== undefined) outlets.push(new DemandGate(options.gate, options.followGate === true));
  if (credit !== undefined) outlets.push(credit);
  // Held values count whether or not delivered ones are held: an outlet that holds only by hold().
  const held: QueueOutlet = options.holdDelivered
    ? inFlight
    : {
        open: true,
        holdsProducer: false,
        get held() {
          return inFlight.held;
        },
        sent: () => {},
        watch: (queue) => inFlight.watch(queue),
      };
  outlets.push(held);
  const queue = new DemandQueue<T>(options, outlets.reduce(bothOutlets));
  let overfill = options.overfill;
  return {
    producerValve: queue.producerValve,
    get size() {
      return queue.size;
    },
    get done() {
      return queue.done;
    },
    get ended() {
      return queue.ended;
    },
    get credit() {
      return credit === undefined ? Number.POSITIVE_INFINITY : credit.count;
    },
    get inFlight() {
      return inFlight.held;
    },
    push(value: T): boolean {
      const waiting = queue.size;
      const taken = queue.push(value);
      if (overfill !== undefined && queue.size > waiting && queue.size + inFlight.held >= overfill.at) {
        const hook = overfill;
        overfill = undefined;
        hook.call(queue.size + inFlight.held);
      }
      return taken;
    },
    end: (ending: QueueEnding) => queue.end(ending),
    take: () => queue.take(),
    drain: () => queue.drain(),
    close: () => queue.close(),
    request: (count: number) => (credit === undefined ? queue.drain() : credit.request(count)),
    hold: (count = 1) => inFlight.hold(count),
    release: (count = 1) => inFlight.release(count),
  };
}

type Composed<T> = ReturnType<typeof composeQueue<T>>;

/** A queue whose deliveries and ending are written to `log` (`1`, `2`, …, `end`, `error:boom`). */
function logged(options: Partial<Composition<number>> = {}) {
  const log: (number | string)[] = [];
  const queue = composeQueue<number>({
    highWater: 4,
    deliver: (value) => log.push(value),
    finish: (ending) => log.push(ending.error ? `error:${(ending.reason as Error).message}` : 'end'),
    ...options,
  });
  const valve: string[] = [];
  queue.producerValve.onChange((paused) => valve.push(paused ? 'pause' : 'resume'));
  return { queue, log, valve };
}

describe('DemandQueue', () => {
  describe('order, gate and credit', () => {
    it('hands a value out at once when it can (nothing queued), and queues it otherwise', () => {
      const { queue, log } = logged();
      queue.push(1);
      expect(log).toEqual([1]);
      expect(queue.size).toBe(0);
    });

    it('holds values while the gate is paused and hands them out in order when it flows', () => {
      const gate = new Valve();
      const { queue, log } = logged({ gate });
      gate.pause();
      queue.push(1);
      queue.push(2);
      expect(log).toEqual([]);
      expect(queue.size).toBe(2);
      gate.resume();
      expect(log).toEqual([1, 2]);
      queue.push(3);
      expect(log).toEqual([1, 2, 3]);
    });

    it('spends one credit per value; request() lets more out', () => {
      const { queue, log } = logged({ credit: 1, highWater: 10 });
      queue.push(1);
      queue.push(2);
      queue.push(3);
      expect(log).toEqual([1]);
      expect(queue.credit).toBe(0);
      queue.request(1);
      expect(log).toEqual([1, 2]);
      queue.request(5);
      expect(log).toEqual([1, 2, 3]);
      expect(queue.credit).toBe(4);
    });

    it('take() polls past the gate and the credit, without spending credit', () => {
      const gate = new Valve();
      const { queue, log } = logged({ gate, credit: 0 });
      gate.pause();
      queue.push(1);
      queue.push(2);
      expect(queue.take()).toBe(1);
      expect(queue.credit).toBe(0);
      expect(queue.take()).toBe(2);
      expect(queue.take()).toBeUndefined();
      expect(log).toEqual([]);
    });
  });

  describe('the ending', () => {
    it('never overtakes the values before it, and needs neither gate nor credit', () => {
      const gate = new Valve();
      const { queue, log } = logged({ gate, credit: 0 });
      gate.pause();
      queue.push(1);
      queue.push(2);
      queue.end({ error: false });
      expect(log).toEqual([]);
      expect(queue.ended).toBe(true);
      expect(queue.done).toBe(false);
      queue.request(1);
      gate.resume();
      expect(log).toEqual([1]); // one credit: 2 and the ending still wait
      expect(queue.take()).toBe(2); // the last value taken: the ending follows at once, without credit
      expect(log).toEqual([1, 'end']);
      expect(queue.done).toBe(true);
    });

    it('an error waits behind the queue too, and is handed out once', () => {
      const gate = new Valve();
      const { queue, log } = logged({ gate });
      gate.pause();
      queue.push(1);
      queue.end({ error: true, reason: new Error('boom') });
      queue.end({ error: false });
      queue.push(2); // after the ending: ignored
      gate.resume();
      gate.pause();
      gate.resume();
      expect(log).toEqual([1, 'error:boom']);
    });

    it('with nothing queued, the ending is handed out at once even while the gate is paused', () => {
      const gate = new Valve();
      const { queue, log } = logged({ gate, credit: 0 });
      gate.pause();
      queue.end({ error: false });
      expect(log).toEqual(['end']);
    });

    it('close() drops the values and the ending: nothing goes out afterwards', () => {
      const gate = new Valve();
      const { queue, log } = logged({ gate });
      gate.pause();
      queue.push(1);
      queue.end({ error: false });
      queue.close();
      gate.resume();
      queue.request(1);
      queue.push(2);
      expect(queue.take()).toBeUndefined();
      expect(log).toEqual([]);
      expect(queue.size).toBe(0);
      expect(queue.done).toBe(true);
    });
  });

  describe("the producer's valve (producerValve)", () => {
    it('pauses once highWater values wait and resumes at lowWater (hysteresis)', () => {
      const { queue, valve } = logged({ highWater: 4, lowWater: 1, credit: 0 });
      for (let value = 1; value <= 3; value += 1) queue.push(value);
      expect(valve).toEqual([]);
      queue.push(4);
      expect(valve).toEqual(['pause']);
      queue.take(); // 3 wait
      queue.take(); // 2 wait
      expect(valve).toEqual(['pause']);
      queue.take(); // 1 waits: the low-water mark
      expect(valve).toEqual(['pause', 'resume']);
    });

    it('without lowWater resumes as soon as fewer than highWater wait', () => {
      const { queue, valve } = logged({ highWater: 2, credit: 0 });
      queue.push(1);
      queue.push(2);
      queue.take();
      expect(valve).toEqual(['pause', 'resume']);
    });

    it('resumes when a value is wanted and none waits, even above lowWater (pure pull, highWater 0)', () => {
      const { queue, log, valve } = logged({ highWater: 0, lowWater: -1, credit: 0 });
      expect(queue.producerValve.paused).toBe(true); // nobody asked yet
      queue.request(1);
      expect(valve).toEqual(['resume']);
      queue.push(1);
      expect(log).toEqual([1]);
      expect(valve).toEqual(['resume', 'pause']); // the credit is spent: paused again
    });

    it('counts values held downstream (inFlight) against highWater until they are released', () => {
      const { queue, valve } = logged({ highWater: 3 });
      queue.push(1);
      queue.hold();
      queue.push(2);
      queue.hold();
      expect(valve).toEqual([]);
      queue.hold();
      expect(queue.inFlight).toBe(3);
      expect(valve).toEqual(['pause']);
      queue.release(2);
      expect(queue.inFlight).toBe(1);
      expect(valve).toEqual(['pause', 'resume']);
      queue.release(5);
      expect(queue.inFlight).toBe(0);
    });

    it('with followGate, pauses the producer as soon as the gate pauses, even with nothing queued', () => {
      const gate = new Valve();
      const { valve } = logged({ gate, followGate: true });
      gate.pause();
      expect(valve).toEqual(['pause']);
      gate.resume();
      expect(valve).toEqual(['pause', 'resume']);
      const plain = logged({ gate });
      gate.pause();
      expect(plain.valve).toEqual([]);
    });

    it('reports every value taken while the producer is paused as progress (a stall detector sees the consumer move)', () => {
      const gate = new Valve();
      const { queue } = logged({ gate, highWater: 3, lowWater: 0 });
      let progress = 0;
      queue.producerValve.onProgress(() => {
        progress += 1;
      });
      gate.pause();
      for (let value = 1; value <= 3; value += 1) queue.push(value);
      expect(queue.producerValve.paused).toBe(true);
      queue.take();
      expect(progress).toBe(1);
      gate.resume(); // 2 and 3 go out by drain while still paused; the valve resumes after
      expect(progress).toBe(3);
      expect(queue.producerValve.paused).toBe(false);
      queue.push(4); // flowing: no progress
      expect(progress).toBe(3);
    });
  });

  describe('overfill', () => {
    it('is called once when the backlog (inFlight included) reaches `at`, and every value is kept', () => {
      const waiting: number[] = [];
      const { queue } = logged({ credit: 0, overfill: { at: 5, call: (count) => waiting.push(count) } });
      queue.hold();
      for (let value = 1; value <= 20; value += 1) queue.push(value);
      expect(waiting).toEqual([5]);
      expect(queue.size).toBe(20);
      const out: number[] = [];
      for (let value = queue.take(); value !== undefined; value = queue.take()) out.push(value);
      expect(out).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    });
  });

  describe('a custom store', () => {
    /** A store that refuses values beyond `capacity`. */
    const strict = (capacity: number): QueueStore<number> & { seen: number[] } => {
      const items = new RingQueue<number>();
      const seen: number[] = [];
      return {
        seen,
        get size() {
          return items.size;
        },
        push: (value) => {
          seen.push(value);
          return items.size < capacity && items.push(value);
        },
        shift: () => items.shift(),
        clear: () => items.clear(),
      };
    };

    it('sees every value (none skips it) and push() reports a refusal', () => {
      const store = strict(1);
      const gate = new Valve();
      const { queue, log } = logged({ store, gate });
      queue.push(1);
      expect(store.seen).toEqual([1]);
      expect(log).toEqual([1]);
      gate.pause();
      expect(queue.push(2)).toBe(true);
      expect(queue.push(3)).toBe(false);
      gate.resume();
      expect(log).toEqual([1, 2]);
    });
  });

  describe('re-entrancy', () => {
    it('a deliver that pushes into its own queue keeps the order and is never re-entered', () => {
      let depth = 0;
      let maxDepth = 0;
      const log: number[] = [];
      const queue: Composed<number> = composeQueue<number>({
        highWater: 8,
        deliver: (value) => {
          depth += 1;
          maxDepth = Math.max(maxDepth, depth);
          log.push(value);
          if (value < 5) queue.push(value + 10);
          depth -= 1;
        },
        finish: () => {},
      });
      queue.push(1);
      queue.push(2);
      expect(log).toEqual([1, 11, 2, 12]);
      expect(maxDepth).toBe(1);
    });

    it('a consumer that closes the queue while handed a value gets nothing more, not even the ending', () => {
      const gate = new Valve();
      const log: (number | string)[] = [];
      const queue: Composed<number> = composeQueue<number>({
        highWater: 8,
        gate,
        deliver: (value) => {
          log.push(value);
          queue.close(); // take(1) downstream: unsubscribes on the first value
        },
        finish: () => log.push('end'),
      });
      gate.pause();
      queue.push(1);
      queue.push(2);
      queue.end({ error: false });
      gate.resume();
      expect(log).toEqual([1]);
    });

    it('a producer that pushes from its resume listener is served in order', () => {
      const log: number[] = [];
      let next = 0;
      const queue = composeQueue<number>({
        highWater: 2,
        lowWater: 0,
        credit: 0,
        deliver: (value) => log.push(value),
        finish: () => {},
      });
      const pump = () => {
        while (!queue.producerValve.paused && next < 10) queue.push(next++);
      };
      queue.producerValve.onChange((paused) => paused || pump());
      pump();
      expect(queue.size).toBe(2);
      queue.request(3); // 0, 1 out; the valve resumes at 0 waiting, the pump refills, 2 goes out at once
      expect(log).toEqual([0, 1, 2]);
      expect(queue.size).toBe(2);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties: random interleavings of what producers and consumers do, against a model.

type Nested = 'none' | 'push' | 'request' | 'end' | 'take' | 'pause' | 'close';
type Step =
  | { readonly op: 'push' }
  | { readonly op: 'end'; readonly error: boolean }
  | { readonly op: 'request'; readonly count: number }
  | { readonly op: 'pause' }
  | { readonly op: 'resume' }
  | { readonly op: 'take' }
  | { readonly op: 'hold'; readonly count: number }
  | { readonly op: 'release'; readonly count: number }
  | { readonly op: 'close' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant({ op: 'push' as const }), weight: 8 },
  { arbitrary: fc.boolean().map((error) => ({ op: 'end' as const, error })), weight: 1 },
  {
    arbitrary: fc.integer({ min: 1, max: 3 }).map((count) => ({ op: 'request' as const, count })),
    weight: 3,
  },
  { arbitrary: fc.constant({ op: 'pause' as const }), weight: 2 },
  { arbitrary: fc.constant({ op: 'resume' as const }), weight: 2 },
  { arbitrary: fc.constant({ op: 'take' as const }), weight: 3 },
  { arbitrary: fc.integer({ min: 1, max: 2 }).map((count) => ({ op: 'hold' as const, count })), weight: 1 },
  {
    arbitrary: fc.integer({ min: 1, max: 3 }).map((count) => ({ op: 'release' as const, count })),
    weight: 1,
  },
  { arbitrary: fc.constant({ op: 'close' as const }), weight: 1 },
);

const configArbitrary = fc
  .record({
    highWater: fc.integer({ min: 0, max: 6 }),
    lowWaterGap: fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined }),
    credit: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    gate: fc.boolean(),
    followGate: fc.boolean(),
    overfillAt: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    /** What the consumer does, re-entrantly, while the n-th value is handed to it. */
    nested: fc.array(
      fc.constantFrom<Nested>('none', 'none', 'none', 'push', 'request', 'end', 'take', 'pause', 'close'),
      {
        maxLength: 20,
      },
    ),
  })
  .map((config) => ({
    ...config,
    lowWater: config.lowWaterGap === undefined ? undefined : config.highWater - config.lowWaterGap,
  }));

type Config = typeof configArbitrary extends fc.Arbitrary<infer C> ? C : never;

/**
 * The specification, in the plainest terms: values wait in an array; one goes out while the gate
 * flows and credit is left; take() skips both; the ending goes out once nothing waits before it;
 * close() stops everything. Nested calls made while a value is handed out are queued behind it.
 */
class Model {
  readonly log: string[] = [];
  #queue: number[] = [];
  #credit: number;
  #gateOpen = true;
  #ending: string | undefined;
  #done = false;
  #draining = false;
  #delivered = 0;

  constructor(
    readonly config: Config,
    readonly onDeliver: (model: Model, nth: number) => void,
  ) {
    this.#credit = config.credit ?? Number.POSITIVE_INFINITY;
  }

  push(value: number): void {
    if (this.#ending !== undefined || this.#done) return;
    this.#queue.push(value);
    this.drain();
  }

  end(error: boolean): void {
    if (this.#ending !== undefined || this.#done) return;
    this.#ending = error ? 'error' : 'end';
    this.drain();
  }

  request(count: number): void {
    if (this.#done) return;
    this.#credit += count;
    this.drain();
  }

  gate(open: boolean): void {
    this.#gateOpen = open || !this.config.gate;
    this.drain();
  }

  take(): number | undefined {
    if (this.#done || this.#queue.length === 0) return undefined;
    const value = this.#queue.shift() as number;
    this.log.push(`take ${value}`);
    this.#finishIfEmpty();
    return value;
  }

  close(): void {
    this.#done = true;
    this.#queue = [];
  }

  drain(): void {
    if (this.#draining || this.#done) return;
    this.#draining = true;
    while (this.#queue.length > 0 && this.#credit > 0 && this.#gateOpen && !this.#done) {
      const value = this.#queue.shift() as number;
      this.#credit -= 1;
      this.log.push(`deliver ${value}`);
      this.onDeliver(this, this.#delivered++);
    }
    this.#draining = false;
    this.#finishIfEmpty();
  }

  #finishIfEmpty(): void {
    if (this.#done || this.#queue.length > 0 || this.#ending === undefined) return;
    this.#done = true;
    this.log.push(this.#ending);
  }
}

/** The real queue, instrumented: the same log as the model, and every rule checked as it happens. */
function instrumented(config: Config) {
  const log: string[] = [];
  const gate = config.gate ? new Valve() : undefined;
  const pushing: number[] = [];
  const overfills: { waiting: number; by: number | undefined }[] = [];
  const handedOut = new Set<number>();
  let next = 0;
  let depth = 0;
  let progress = 0;
  let delivered = 0;
  let accepted = 0;
  let out = 0;
  let finishes = 0;
  let taking = 0;
  const queue: Composed<number> = composeQueue<number>({
    highWater: config.highWater,
    lowWater: config.lowWater,
    credit: config.credit,
    gate,
    followGate: config.followGate,
    overfill:
      config.overfillAt === undefined
        ? undefined
        : {
            at: config.overfillAt,
            call: (waiting) => {
              expect(waiting).toBe(queue.size + queue.inFlight);
              expect(waiting).toBeGreaterThanOrEqual(config.overfillAt as number);
              overfills.push({ waiting, by: pushing.at(-1) });
            },
          },
    deliver: (value) => {
      depth += 1;
      expect(depth, 'deliver re-entered').toBe(1);
      out += 1;
      handedOut.add(value);
      log.push(`deliver ${value}`);
      // A value from the queue (not the one being pushed, straight out) is progress while paused.
      const fromQueue = value !== pushing.at(-1);
      if (fromQueue)
        expect(progress, `progress before delivering ${value}`).toBe(queue.producerValve.paused ? 1 : 0);
      progress = 0;
      actions.nested(config.nested[delivered++] ?? 'none');
      depth -= 1;
    },
    finish: (ending: QueueEnding) => {
      finishes += 1;
      expect(finishes, 'the ending handed out twice').toBe(1);
      // take() hands out the ending right after the last value, before it returns that value.
      expect(out + taking, 'the ending overtook a value').toBe(accepted);
      log.push(ending.error ? 'error' : 'end');
    },
  });
  queue.producerValve.onProgress(() => {
    progress += 1;
  });
  const actions = {
    push: () => {
      const value = next++;
      const ignored = queue.ended;
      if (!ignored) accepted += 1;
      const overfilledBefore = overfills.length;
      pushing.push(value);
      queue.push(value);
      pushing.pop();
      // Stored: neither ignored nor handed straight out (a stored push hands nothing out).
      const stored = !ignored && !handedOut.has(value);
      const mine = overfills.filter((overfill) => overfill.by === value).length;
      if (config.overfillAt !== undefined && overfilledBefore === 0 && stored) {
        const backlog = queue.size + queue.inFlight;
        expect(mine, `overfill at a backlog of ${backlog}`).toBe(backlog >= config.overfillAt ? 1 : 0);
      } else expect(mine, 'overfill called again, or for a value not queued').toBe(0);
    },
    take: () => {
      const paused = queue.producerValve.paused;
      taking += 1;
      const at = log.length;
      const value = queue.take();
      taking -= 1;
      if (value !== undefined) {
        out += 1;
        log.splice(at, 0, `take ${value}`); // before the ending it may have handed out
        expect(progress, 'progress for a take while paused').toBe(paused ? 1 : 0);
      }
      progress = 0;
    },
    nested: (what: Nested) => {
      if (what === 'push') actions.push();
      else if (what === 'request') queue.request(1);
      else if (what === 'end') queue.end({ error: false });
      else if (what === 'take') actions.take();
      else if (what === 'pause') gate?.pause();
      else if (what === 'close') queue.close(); // the consumer leaves while handed a value
    },
  };
  const checkValve = () => {
    if (queue.done) return;
    const backlog = queue.size + queue.inFlight;
    const gateShut = gate?.paused === true;
    const wanted = backlog === 0 && queue.credit > 0 && !gateShut;
    const held = config.followGate && gateShut;
    const state = `backlog ${backlog}, credit ${queue.credit}, gate ${gateShut ? 'shut' : 'open'}`;
    if (!wanted && (backlog >= config.highWater || held)) {
      expect(queue.producerValve.paused, `the producer flows at ${state}`).toBe(true);
    }
    if (queue.producerValve.paused) {
      expect(wanted, `the producer is paused though a value is wanted (${state})`).toBe(false);
      const lowWater = config.lowWater ?? config.highWater - 1;
      expect(backlog > lowWater || held, `the producer is paused at ${state}`).toBe(true);
    }
  };
  const apply = (step: Step) => {
    if (step.op === 'push') actions.push();
    else if (step.op === 'end') queue.end(step.error ? { error: true, reason: 'boom' } : { error: false });
    else if (step.op === 'request') queue.request(step.count);
    else if (step.op === 'pause') gate?.pause();
    else if (step.op === 'resume') gate?.resume();
    else if (step.op === 'take') actions.take();
    else if (step.op === 'hold') queue.hold(step.count);
    else if (step.op === 'release') queue.release(step.count);
    else queue.close();
    checkValve();
  };
  return { queue, log, apply, overfills };
}

/** The model, driven by the same steps (hold/release do not change what goes out). */
function modelOf(config: Config) {
  let next = 0;
  const nested = (model: Model, nth: number) => {
    const what = config.nested[nth] ?? 'none';
    if (what === 'push') model.push(next++);
    else if (what === 'request') model.request(1);
    else if (what === 'end') model.end(false);
    else if (what === 'take') model.take();
    else if (what === 'pause') model.gate(false);
    else if (what === 'close') model.close();
  };
  const model = new Model(config, nested);
  const apply = (step: Step) => {
    if (step.op === 'push') model.push(next++);
    else if (step.op === 'end') model.end(step.error);
    else if (step.op === 'request') model.request(step.count);
    else if (step.op === 'pause') model.gate(false);
    else if (step.op === 'resume') model.gate(true);
    else if (step.op === 'take') model.take();
    else if (step.op === 'close') model.close();
  };
  return { model, apply };
}

describe('DemandQueue properties', () => {
  it('any interleaving of push / end / request / gate / take / hold / release / close: order, no loss, no duplicate, nothing after close, the ending once and last; the valve, progress and overfill rules hold at every step', () => {
    fc.assert(
      fc.property(configArbitrary, fc.array(stepArbitrary, { maxLength: 80 }), (config, steps) => {
        const real = instrumented(config);
        const { model, apply } = modelOf(config);
        for (const step of steps) {
          real.apply(step);
          apply(step);
          expect(real.log).toEqual(model.log);
        }
        // Each value out at most once, in push order.
        const values = real.log
          .filter((entry) => /^(deliver|take) /.test(entry))
          .map((entry) => Number(entry.split(' ')[1]));
        expect(values).toEqual([...values].sort((a, b) => a - b));
        expect(new Set(values).size).toBe(values.length);
        expect(real.overfills.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 1500 },
    );
  });

  it('a producer that honours the valve (pushing from its resume listener) keeps the backlog within highWater; nothing is lost', () => {
    const consumerStep = fc.oneof(
      fc.integer({ min: 1, max: 4 }).map((count) => ({ op: 'request' as const, count })),
      fc.constant({ op: 'take' as const }),
      fc.constant({ op: 'pause' as const }),
      fc.constant({ op: 'resume' as const }),
      fc.integer({ min: 1, max: 2 }).map((count) => ({ op: 'hold' as const, count })),
      fc.integer({ min: 1, max: 3 }).map((count) => ({ op: 'release' as const, count })),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 5 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        fc.array(consumerStep, { maxLength: 60 }),
        (highWater, gap, followGate, total, steps) => {
          const gate = new Valve();
          const out: number[] = [];
          let finished = 0;
          let produced = 0;
          let maxSize = 0;
          const queue = composeQueue<number>({
            highWater,
            lowWater: Math.max(-1, highWater - 1 - gap),
            credit: 0,
            gate,
            followGate,
            deliver: (value) => out.push(value),
            finish: () => {
              finished += 1;
            },
          });
          const pump = () => {
            while (!queue.producerValve.paused && produced < total) {
              queue.push(produced++);
              maxSize = Math.max(maxSize, queue.size);
              if (produced === total) queue.end({ error: false });
            }
          };
          queue.producerValve.onChange((paused) => paused || pump());
          pump();
          for (const step of steps) {
            if (step.op === 'request') queue.request(step.count);
            else if (step.op === 'take') {
              const value = queue.take();
              if (value !== undefined) out.push(value);
            } else if (step.op === 'pause') gate.pause();
            else if (step.op === 'resume') gate.resume();
            else if (step.op === 'hold') queue.hold(step.count);
            else queue.release(step.count);
            expect(queue.size).toBeLessThanOrEqual(highWater);
          }
          expect(maxSize).toBeLessThanOrEqual(highWater);
          // Drain the rest: everything produced comes out once, in order, then the ending.
          gate.resume();
          queue.release(Number.MAX_SAFE_INTEGER);
          for (let guard = 0; guard < 10 * total && finished === 0; guard += 1) queue.request(1);
          expect(out).toEqual(Array.from({ length: total }, (_, index) => index));
          expect(finished).toBe(1);
        },
      ),
      { numRuns: 800 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The queue under an operator: bounded() is a DemandQueue gated by its consumer's demand.

describe('DemandQueue under bounded(), in virtual time', () => {
  it('the gate holds values while the consumer is paused; the ending waits behind them', () => {
    newTestScheduler().run(({ chunks, demand, expectChunks, expectSubscriptions }) => {
      const source = chunks('   -a-b-c-|');
      const consumer = demand(' --p-----r');
      const expected = '        -a------(bc|)';
      const sourceSubs = '      ^------!';
      expectChunks(withDemand(consumer, source.pipe(bounded({ bufferSize: 4 })))).toBe(expected);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it('a consumer that stays paused never sees the ending; unsubscribing drops what waits', () => {
    newTestScheduler().run(({ chunks, demand, expectChunks, expectSubscriptions }) => {
      const source = chunks('   -a-b-c-|');
      const consumer = demand(' --p');
      const unsub = '           ^---------!';
      const expected = '        -a';
      const sourceSubs = '      ^------!';
      expectChunks(withDemand(consumer, source.pipe(bounded({ bufferSize: 4 }))), unsub).toBe(expected);
      expectSubscriptions(source.subscriptions).toBe(sourceSubs);
    });
  });

  it("suspend: the producer's valve pauses once `capacity` values wait behind the gate, and resumes when they went out", () => {
    const trace: string[] = [];
    const scheduler = newTestScheduler();
    scheduler.run(({ demand, expectObservable }) => {
      const steps = [...'abcdef'].map((chunk, index) => ({ at: index + 1, chunk, final: chunk === 'f' }));
      const producer = scriptedProducer(steps, scheduler, (event, time) => trace.push(`${event}@${time}`));
      const consumer = demand(' --p-------r');
      const expected = '        -a--------(bcdef|)';
      const values = Object.fromEntries(
        steps.map(({ chunk, final }, sequence) => [
          chunk,
          { sequence, kind: 'chunk', content: chunk, isFinal: final },
        ]),
      );
      expectObservable(withDemand(consumer, producer.pipe(bounded({ bufferSize: 2 })))).toBe(
        expected,
        values,
      );
    });
    // b (2) and c (3) wait behind the paused consumer: the producer is paused at 3 and holds d and e;
    // the consumer's resume at 10 hands b and c out, which resumes the producer at once.
    expect(trace.filter((entry) => /pause|resume/.test(entry))).toEqual(['pause@3', 'resume@10']);
  });

  it('dropping: behind the gate the arriving values are dropped at `capacity`, and the gap is reported', () => {
    newTestScheduler().run(({ chunks, demand, expectChunks }) => {
      const source = chunks('   -a-b-c-d-e------|');
      const consumer = demand(' --p-------r');
      const expected = '        -a--------(bc)--|';
      const output = withDemand(consumer, source.pipe(bounded({ bufferSize: 2, strategy: 'dropping' })));
      expectChunks(output).toBe(expected, {}, { end: { metadata: { dropped: 2 } } });
    });
  });
});
