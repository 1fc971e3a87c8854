import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type Bridge, createBridge } from '../../../src/kernel/bridge/bridge.js';
import { createExtensionApi } from '../../../src/kernel/bridge/extension-api.js';
import { createHost } from '../../../src/kernel/host/create-host.js';
import type { HostcallOutcome } from '../../../src/kernel/protocol/hostcall-outcome.js';
import { groupGone, pollUntil } from '../../support/processes.js';
import { needs } from '../../support/system-tools.js';

/**
 * sh writer: its pid to $1, then $2 numbered lines (`echo` is one write each; sh blocks on a full
 * pipe); with $3 = linger it then waits on a `sleep` in its group, so only a kill ends it.
 */
const WRITER =
  'echo $$ > "$1"; i=0; while [ "$i" -lt "$2" ]; do echo "line $i"; i=$((i + 1)); done; ' +
  'if [ "$3" = linger ]; then sleep 60 & wait; fi';
const STREAMS = 100;
const CONCURRENCY = 8;

const dir = mkdtempSync(join(tmpdir(), 'sluice-stress-'));
let runs = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const planArbitrary = fc.record({
  lines: fc.integer({ min: 0, max: 40 }),
  action: fc.constantFrom('none', 'break', 'cancelStream'),
  after: fc.integer({ min: 0, max: 40 }),
  bufferSize: fc.integer({ min: 1, max: 8 }),
});
type Plan = typeof planArbitrary extends fc.Arbitrary<infer P> ? P : never;

/** Live (non-zombie) processes whose command line mentions `text`, from /proc. */
function liveProcessesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const state = readFileSync(`/proc/${entry}/stat`, 'latin1').split(') ')[1]?.[0];
      if (state === 'Z' || state === 'X') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(text)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // cancelled before it wrote its pid
  }
}

/** Runs one stream as its plan says; returns the values the extension saw. */
const stopsEarly = (plan: Plan) => plan.action !== 'none' && plan.after <= plan.lines;

async function consume(api: ReturnType<typeof createExtensionApi>, plan: Plan, file: string) {
  // A stream the plan stops lingers after its lines: its group is alive until the cancel kills it.
  const linger = stopsEarly(plan) ? 'linger' : 'exit';
  const stream = api.exec('sh', ['-c', WRITER, 'sh', file, String(plan.lines), linger], {
    stream: true,
    bufferSize: plan.bufferSize,
  });
  const values: unknown[] = [];
  // Stopping after 0 values: drop the iterator / cancel before the first next().
  if (plan.action === 'break' && plan.after === 0) await stream.return();
  if (plan.action === 'cancelStream' && plan.after === 0) api.cancelStream(stream.callId);
  for await (const value of stream) {
    values.push(value);
    if (values.length === plan.after && plan.action === 'break') break;
    if (values.length === plan.after && plan.action === 'cancelStream') api.cancelStream(stream.callId);
  }
  return { callId: stream.callId, values };
}

describe.skipIf(!needs('linux'))('host streams — stress with real processes', () => {
  it('100 streams through one host with random break / cancelStream: one final outcome each, contiguous sequences, no process left', async () => {
    // Streams the plan stops keep their group alive (a lingering `sleep`) until the cancel kills it.
    await fc.assert(
      fc.asyncProperty(fc.array(planArbitrary, { minLength: STREAMS, maxLength: STREAMS }), async (plans) => {
        const host = createHost({ logger: { warn: () => {} } });
        const seen = new Map<string, HostcallOutcome[]>();
        let bridge: Bridge | undefined;
        const connection = host.connect('ext-a', (task) => {
          seen.set(task.callId, [...(seen.get(task.callId) ?? []), task.outcome]);
          bridge?.completeHostcall(task.callId, task.outcome);
        });
        bridge = createBridge(connection);
        const api = createExtensionApi(bridge);
        runs += 1;
        const run = runs;
        const files = plans.map((_, i) => join(dir, `pid-${run}-${i}`));
        const results: { callId: string; values: unknown[] }[] = [];
        let next = 0;
        const worker = async () => {
          for (let i = next++; i < plans.length; i = next++) {
            results[i] = await consume(api, plans[i] as Plan, files[i] as string);
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        const idle = () => host.activeStreams().length === 0 && host.scheduler.size === 0;
        expect(await pollUntil(idle, 15_000)).toBe(true);

        expect(seen.size).toBe(STREAMS);
        plans.forEach((plan, i) => {
          const { callId, values } = results[i] as { callId: string; values: unknown[] };
          const outcomes = seen.get(callId) ?? [];
          const lines = Array.from({ length: plan.lines }, (_, n) => `line ${n}\n`);
          // What the extension saw is the child's output, in order, cut where it stopped.
          expect(values.slice(0, Math.min(values.length, plan.lines)), callId).toEqual(
            lines.slice(0, values.length),
          );
          // On the wire: contiguous sequences from 0, exactly one final outcome, and it is the last.
          expect(
            outcomes.map((o) => (o.type === 'streamChunk' ? o.sequence : -1)),
            callId,
          ).toEqual(outcomes.map((_, n) => n));
          const finals = outcomes.filter(
            (o) => o.type === 'error' || (o.type === 'streamChunk' && o.isFinal),
          );
          expect(finals, callId).toHaveLength(1);
          expect(outcomes.at(-1), callId).toMatchObject({ type: 'streamChunk', isFinal: true });
          if (stopsEarly(plan)) expect(outcomes.at(-1), callId).toMatchObject({ chunk: null });
          else {
            expect(values, callId).toEqual([...lines, expect.objectContaining({ exitCode: 0 })]);
          }
        });
        // Every process group is gone, including those cancelled before they wrote their pid.
        for (const file of files) {
          const pid = readPid(file);
          if (pid !== undefined) expect(await groupGone(pid, 10_000), `group ${pid}`).toBe(true);
        }
        expect(await pollUntil(() => liveProcessesMentioning(dir).length === 0, 10_000)).toBe(true);
      }),
      { numRuns: 3 },
    );
    // 300 real process groups: a few seconds on a quiet machine, near a minute on a loaded one.
  }, 180_000);
});
