import fc from 'fast-check';
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../src/kernel/host/create-host.js';
import type { HostcallOutcome } from '../../../src/kernel/protocol/hostcall-outcome.js';
import {
  createMacrotaskScheduler,
  type Macrotask,
} from '../../../src/kernel/scheduler/macrotask-scheduler.js';
import { type ScriptedStep, scriptedProducer } from '../../../src/testing/scripted-producer.js';

const planArbitrary = fc.record({
  chunks: fc.integer({ min: 0, max: 20 }),
  gap: fc.integer({ min: 1, max: 10 }),
  ending: fc.constantFrom('final', 'complete', 'error'),
  bufferSize: fc.integer({ min: 1, max: 6 }),
  stall: fc.constantFrom(0, 0, 50, 200),
  pulls: fc.array(
    fc.record({ at: fc.integer({ min: 0, max: 400 }), count: fc.integer({ min: 1, max: 5 }) }),
    {
      maxLength: 6,
    },
  ),
  cancelAt: fc.option(fc.integer({ min: 0, max: 400 })),
  extension: fc.constantFrom('ext-a', 'ext-b'),
});
type Plan = typeof planArbitrary extends fc.Arbitrary<infer P> ? P : never;

function steps(plan: Plan): ScriptedStep[] {
  const list: ScriptedStep[] = [];
  for (let n = 0; n < plan.chunks; n += 1) list.push({ at: (n + 1) * plan.gap, chunk: `c${n}` });
  const end = (plan.chunks + 1) * plan.gap;
  if (plan.ending === 'final') list.push({ at: end, chunk: 'last', final: true });
  else if (plan.ending === 'complete') list.push({ at: end, complete: true });
  else list.push({ at: end, error: { code: 'EXEC_FAILED', message: 'exit code 1' } });
  return list;
}

/** Runs 100 streams on one host in virtual time; returns every delivered macrotask and the producers' traces. */
function run(plans: readonly Plan[], unloadAt: number | null) {
  const clock = new VirtualTimeScheduler();
  const scheduler = createMacrotaskScheduler<HostcallOutcome>({ clock, driver: clock });
  const traces = new Map<string, string[]>();
  const endedAt = new Map<string, number>();
  const scripts = new Map(plans.map((plan, i) => [`hc-${i}`, steps(plan)]));
  const host = createHost({
    scheduler,
    logger: { warn: () => {} },
    producers: {
      exec: (_payload, context) => {
        const trace: string[] = [];
        traces.set(context.callId, trace);
        return scriptedProducer(scripts.get(context.callId) ?? [], clock, (event, time) => {
          trace.push(event);
          if (event === 'emit' && endedAt.has(context.callId) && time > (endedAt.get(context.callId) ?? 0)) {
            trace.push('emit-after-end');
          }
        });
      },
    },
  });
  const delivered: Macrotask<HostcallOutcome>[] = [];
  const record = (task: Macrotask<HostcallOutcome>) => {
    delivered.push(task);
    const { outcome } = task;
    if (outcome.type === 'error' || (outcome.type === 'streamChunk' && outcome.isFinal)) {
      endedAt.set(task.callId, clock.now());
    }
  };
  host.connect('ext-a', record);
  host.connect('ext-b', record);
  plans.forEach((plan, i) => {
    const callId = `hc-${i}`;
    const payload = { cmd: 'job', stream: true, buffer_size: plan.bufferSize, stall_timeout_ms: plan.stall };
    host.hostcall(plan.extension, { callId, kind: 'exec', payload });
    for (const pull of plan.pulls)
      clock.schedule(() => host.pull(plan.extension, callId, pull.count), pull.at);
    if (plan.cancelAt !== null)
      clock.schedule(() => host.cancelStream(plan.extension, callId), plan.cancelAt);
    clock.schedule(() => host.pull(plan.extension, callId, Number.POSITIVE_INFINITY), 1000);
  });
  if (unloadAt !== null) clock.schedule(() => host.unloadExtension('ext-b'), unloadAt);
  clock.flush();
  return { delivered, traces, active: host.activeStreams(), queued: scheduler.size };
}

describe('host streams — property', () => {
  it('100 streams with random pulls, cancels, stalls and an unload: one final outcome each, contiguous sequences, deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(planArbitrary, { minLength: 100, maxLength: 100 }),
        fc.option(fc.integer({ min: 0, max: 400 })),
        (plans, unloadAt) => {
          const result = run(plans, unloadAt);
          expect(result.active).toEqual([]);
          expect(result.queued).toBe(0);
          const seqs = result.delivered.map((task) => task.seq);
          expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
          const byCall = new Map<string, HostcallOutcome[]>();
          for (const task of result.delivered)
            byCall.set(task.callId, [...(byCall.get(task.callId) ?? []), task.outcome]);
          expect(byCall.size).toBe(100);
          for (const [callId, outcomes] of byCall) {
            const terminal = outcomes.filter(
              (o) => o.type === 'error' || (o.type === 'streamChunk' && o.isFinal),
            );
            expect(terminal, callId).toHaveLength(1);
            expect(outcomes.at(-1), callId).toBe(terminal[0]);
            const sequences = outcomes.flatMap((o) => (o.type === 'streamChunk' ? [o.sequence] : []));
            expect(sequences, callId).toEqual(sequences.map((_, n) => n));
            const trace = result.traces.get(callId) ?? [];
            expect(trace[0], callId).toBe('subscribe');
            expect(trace, `${callId}: the producer stopped with its stream`).not.toContain('emit-after-end');
            const plan = plans[Number(callId.slice(3))] as Plan;
            const emitted = trace.filter((event) => event === 'emit').length;
            const chunksDelivered = outcomes.filter(
              (o) => o.type === 'streamChunk' && o.chunk !== null,
            ).length;
            expect(chunksDelivered, callId).toBeLessThanOrEqual(emitted);
            if (trace.includes('unsubscribe')) expect(trace.at(-1), callId).toBe('unsubscribe');
            else expect(emitted, callId).toBe(plan.chunks + (plan.ending === 'final' ? 1 : 0));
          }
          expect(run(plans, unloadAt).delivered).toEqual(result.delivered);
        },
      ),
      { numRuns: 25 },
    );
  });
});
