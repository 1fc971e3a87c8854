import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Observable, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { subscribeWithDemand } from '../../src/core/subscriber-chain.js';
import { createHost } from '../../src/kernel/host/create-host.js';
import type { HostStream } from '../../src/kernel/host/host.js';
import type { HostcallOutcome } from '../../src/kernel/protocol/hostcall-outcome.js';
import type { JsonValue } from '../../src/kernel/protocol/json-value.js';
import { createMacrotaskScheduler, type Macrotask } from '../../src/kernel/scheduler/macrotask-scheduler.js';
import { type ScriptedStep, scriptedProducer } from '../../src/testing/scripted-producer.js';

const json = z.custom<JsonValue>(() => true);
const step = z.union([
  z.strictObject({
    at: z.number().int().min(0),
    chunk: json,
    final: z.boolean().optional(),
    repeat: z.number().int().positive().optional(),
  }),
  z.strictObject({ at: z.number().int().min(0), complete: z.literal(true) }),
  z.strictObject({
    at: z.number().int().min(0),
    error: z.strictObject({ code: z.string(), message: z.string() }),
  }),
]);
const call = z.strictObject({
  at: z.number().int().min(0),
  extension: z.string(),
  callId: z.string(),
  kind: z.string(),
  payload: z.record(z.string(), json),
  producer: z.array(step).optional(),
  ignoresPause: z.literal(true).optional(),
  result: z
    .union([
      z.strictObject({ value: json }),
      z.strictObject({ error: z.strictObject({ code: z.string(), message: z.string() }) }),
    ])
    .optional(),
});
const action = z.union([
  z.strictObject({
    at: z.number().int().min(0),
    pull: z.string(),
    extension: z.string().optional(),
    // Any JSON: invalid counts (0, -1, 1.5, "2") are part of the protocol's data too.
    count: json,
  }),
  z.strictObject({
    at: z.number().int().min(0),
    tick: z.union([z.number().int().positive(), z.literal('idle')]),
  }),
  z.strictObject({ at: z.number().int().min(0), cancel: z.string(), extension: z.string().optional() }),
  z.strictObject({ at: z.number().int().min(0), unload: z.string() }),
  z.strictObject({ at: z.number().int().min(0), expectQueued: z.array(json) }),
  z.strictObject({
    at: z.number().int().min(0),
    expectStream: z.string(),
    extension: z.string().optional(),
    state: z.union([
      z.strictObject({
        channelled: z.number(),
        queued: z.number(),
        credit: z.union([z.number(), z.literal('all')]),
        paused: z.boolean(),
      }),
      z.null(),
    ]),
  }),
]);
const row = z.record(z.string(), json);
const scenarioSchema = z.strictObject({
  name: z.string(),
  spec: z.string(),
  description: z.string(),
  driver: z.enum(['clock', 'manual']),
  calls: z.array(call),
  actions: z.array(action),
  expected: z.strictObject({
    delivered: z.array(row),
    logs: z.array(z.string()),
    producers: z.record(z.string(), z.array(z.string())),
  }),
});
type Scenario = z.infer<typeof scenarioSchema>;

/** A delivered (or queued) macrotask as a scenario row: `{ seq, callId, sequence, isFinal, chunk }`, `{ seq, callId, error }` or `{ seq, callId, value }`. */
function toRow(task: Macrotask<HostcallOutcome>): Record<string, JsonValue> {
  const { seq, callId, outcome } = task;
  if (outcome.type === 'streamChunk') {
    return { seq, callId, sequence: outcome.sequence, isFinal: outcome.isFinal, chunk: outcome.chunk };
  }
  if (outcome.type === 'error')
    return { seq, callId, error: { code: outcome.code, message: outcome.message } };
  return { seq, callId, value: outcome.value };
}

/** A stream's state as a scenario writes it (`credit: "all"` when flowing), `null` when the call has no live stream. */
function toState(stream: HostStream | undefined) {
  if (stream === undefined) return null;
  const { channelled, queued, credit, paused } = stream;
  return { channelled, queued, credit: credit === Number.POSITIVE_INFINITY ? 'all' : credit, paused };
}

/** A call's steps with each `repeat` spelled out (`{ chunk, repeat: 3 }` is three chunks at that time). */
function expand(steps: Scenario['calls'][number]['producer']): ScriptedStep[] {
  return (steps ?? []).flatMap((entry) => {
    if (!('repeat' in entry) || entry.repeat === undefined) return [entry];
    const { repeat, ...one } = entry;
    return Array.from({ length: repeat }, () => one);
  });
}

/**
 * A producer that does not listen to its consumer's demand (a synchronous source): the script
 * is subscribed through a subscriber that says "no demand here", so it never pauses.
 */
function ignoringPause(source: Observable<ChunkEvent<JsonValue>>): Observable<ChunkEvent<JsonValue>> {
  return new Observable((subscriber) => subscribeWithDemand(source, null, subscriber));
}

/** Plays a scenario in virtual time and returns what it observed. Pure: same scenario, same result. */
function play(scenario: Scenario) {
  const clock = new VirtualTimeScheduler();
  const scheduler = createMacrotaskScheduler<HostcallOutcome>({
    clock,
    driver: scenario.driver === 'manual' ? 'manual' : clock,
  });
  const logs: string[] = [];
  const traces: Record<string, string[]> = {};
  // Calls are (extension, callId); a trace is keyed by the callId, or by "extension callId" when
  // several extensions use that call id.
  const key = (extensionId: string, callId: string) => `${extensionId} ${callId}`;
  // The entry of the call being started: a call id may come back (a duplicate, a reuse), so the
  // handler and the producer factory (both run inside `hostcall`) read the entry that made it.
  const scripts = new Map<string, Scenario['calls'][number]>();
  const shared = (callId: string) =>
    new Set(scenario.calls.filter((c) => c.callId === callId).map((c) => c.extension)).size > 1;
  const produce = (_payload: unknown, context: { extensionId: string; callId: string }) => {
    const entry = scripts.get(key(context.extensionId, context.callId));
    const script = expand(entry?.producer);
    const name = shared(context.callId) ? key(context.extensionId, context.callId) : context.callId;
    const trace: string[] = traces[name] ?? [];
    traces[name] = trace;
    const producer = scriptedProducer(script, clock, (event, time) => {
      if (event !== 'emit') trace.push(`${event}@${time}`);
    });
    return entry?.ignoresPause === true ? ignoringPause(producer) : producer;
  };
  const answer = (_payload: unknown, context: { extensionId: string; callId: string }): JsonValue => {
    const result = scripts.get(key(context.extensionId, context.callId))?.result;
    if (result === undefined || 'error' in result) {
      throw Object.assign(new Error(result?.error.message ?? 'no result'), { code: result?.error.code });
    }
    return result.value;
  };
  const host = createHost({
    scheduler,
    logger: { warn: (message) => logs.push(message) },
    producers: { exec: produce, http: produce },
    handlers: { exec: answer, http: answer, tool: answer, session: answer, events: answer, ui: answer },
  });
  const delivered: Record<string, JsonValue>[] = [];
  const failures: string[] = [];
  for (const extension of new Set(scenario.calls.map((entry) => entry.extension))) {
    host.connect(extension, (task) => delivered.push(toRow(task)));
  }
  for (const entry of scenario.calls) {
    clock.schedule(() => {
      scripts.set(key(entry.extension, entry.callId), entry);
      host.hostcall(entry.extension, { callId: entry.callId, kind: entry.kind, payload: entry.payload });
    }, entry.at);
  }
  // An action names a call by id; its extension is the action's `extension`, else the one that made the call.
  const owner = (callId: string, extension: string | undefined) =>
    extension ?? scenario.calls.find((entry) => entry.callId === callId)?.extension ?? '';
  for (const entry of scenario.actions) {
    clock.schedule(() => {
      if ('pull' in entry) {
        const count = entry.count === 'all' ? Number.POSITIVE_INFINITY : entry.count;
        host.pull(owner(entry.pull, entry.extension), entry.pull, count as number);
      } else if ('tick' in entry) {
        if (entry.tick === 'idle') scheduler.runUntilIdle();
        else for (let n = 0; n < entry.tick; n += 1) scheduler.tick();
      } else if ('cancel' in entry) host.cancelStream(owner(entry.cancel, entry.extension), entry.cancel);
      else if ('unload' in entry) host.unloadExtension(entry.unload);
      else if ('expectStream' in entry) {
        const state = toState(host.stream(owner(entry.expectStream, entry.extension), entry.expectStream));
        if (JSON.stringify(state) !== JSON.stringify(entry.state)) {
          failures.push(`at ${entry.at}: ${entry.expectStream} is ${JSON.stringify(state)}`);
        }
      } else {
        const queued = scheduler.pending().map(toRow);
        if (JSON.stringify(queued) !== JSON.stringify(entry.expectQueued)) {
          failures.push(`at ${entry.at}: queued ${JSON.stringify(queued)}`);
        }
      }
    }, entry.at);
  }
  clock.flush();
  while (scheduler.runUntilIdle() > 0) clock.flush();
  return { delivered, logs, producers: traces, failures, active: host.activeStreams() };
}

function checkUnambiguous(scenario: Scenario): void {
  const stepTimes = new Set(scenario.calls.flatMap((entry) => (entry.producer ?? []).map((s) => s.at)));
  for (const entry of scenario.actions) {
    if (stepTimes.has(entry.at))
      throw new Error(`${scenario.name}: an action and a producer step share time ${entry.at}`);
  }
}

const folder = join(dirname(fileURLToPath(import.meta.url)), '../../marbles');
const files = readdirSync(folder)
  .filter((name) => /^hostcall-.*\.json$/.test(name))
  .sort();

describe('hostcall scenarios (marbles/hostcall-*.json)', () => {
  it('has a scenario for every lifecycle table and channel rule of docs/protocol.md', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'hostcall-happy-path.json',
        'hostcall-error-mid-stream.json',
        'hostcall-cancel-mid-stream.json',
        'hostcall-zero-chunk.json',
        'hostcall-backpressure-stall.json',
        'hostcall-unload-during-stream.json',
        'hostcall-two-concurrent-streams.json',
        'hostcall-deterministic-clock.json',
        'hostcall-same-call-id-two-extensions.json',
        'hostcall-capacity.json',
        'hostcall-overflow.json',
        'hostcall-duplicate-call-id.json',
        'hostcall-invalid-pulls.json',
      ]),
    );
  });

  for (const file of files) {
    it(`${file}: delivers exactly the expected table, twice`, () => {
      const scenario = scenarioSchema.parse(JSON.parse(readFileSync(join(folder, file), 'utf8')));
      checkUnambiguous(scenario);
      const first = play(scenario);
      const second = play(scenario);
      expect(second).toEqual(first);
      expect(first.failures).toEqual([]);
      expect(first.delivered).toEqual(scenario.expected.delivered);
      expect(first.logs).toEqual(scenario.expected.logs);
      expect(first.producers).toEqual(scenario.expected.producers);
      expect(first.active).toEqual([]);
      // Every call ends with exactly one final outcome (a final chunk, an Error, a Success): count
      // them per call id against the calls made with that id (by any extension, accepted or not).
      const finals = new Map<string, number>();
      for (const entry of first.delivered) {
        const callId = entry.callId as string;
        if (entry.isFinal === true || 'error' in entry || 'value' in entry) {
          finals.set(callId, (finals.get(callId) ?? 0) + 1);
        }
      }
      const made = new Map<string, number>();
      for (const entry of scenario.calls) made.set(entry.callId, (made.get(entry.callId) ?? 0) + 1);
      expect(finals, 'one final outcome per call').toEqual(made);
    });
  }
});
