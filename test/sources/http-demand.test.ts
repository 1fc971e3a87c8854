import type { ServerResponse } from 'node:http';
import { filter, map } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Valve } from '../../src/core/demand.js';
import { http } from '../../src/sources/http.js';
import { withDemand } from '../../src/testing/demand-marbles.js';
import { record } from '../fixtures/http-recorder.js';
import { startTestServer, type TestServer } from '../fixtures/http-server.js';

const TOTAL = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Writes TOTAL bytes as fast as the socket takes them, counting what `res.write()` accepted. */
function writeFlood(res: ServerResponse) {
  const state = { written: 0, blocked: false, sawFalse: false };
  res.writeHead(200, { 'content-length': String(TOTAL) });
  const pump = () => {
    state.blocked = false;
    while (state.written < TOTAL) {
      state.written += CHUNK.length;
      if (!res.write(CHUNK)) {
        state.blocked = true;
        state.sawFalse = true;
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
  return state;
}

/** Polls `condition` every 10 ms until it holds, failing after `deadlineMs`. */
async function until(condition: () => boolean, deadlineMs: number): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > deadlineMs) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Watches `state.written` for `windowMs` and returns the most it reached (the window is the assertion). */
async function observeWritten(state: { written: number }, windowMs: number): Promise<number> {
  let most = state.written;
  const start = performance.now();
  while (performance.now() - start < windowMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    most = Math.max(most, state.written);
  }
  return most;
}

describe('http demand', () => {
  it('a paused consumer leaves the body unread: the server blocks, and resuming delivers every byte', async () => {
    const pending = server.nextRequest('/flood');
    const valve = new Valve();
    let taken = 0;
    let pausedOnce = false;
    // The demand travels through map/filter to the producer, as an adapter would hand it over.
    const recording = record(
      withDemand(
        valve,
        http(server.url('/flood')).pipe(
          filter((event) => event.kind !== 'response'),
          map((event) => event),
        ),
      ),
      (event) => {
        if (event.kind !== 'body' || typeof event.content === 'string') return;
        taken += event.content.byteLength;
        if (pausedOnce) return;
        pausedOnce = true;
        valve.pause(); // as a full consumer buffer would, right after the first chunk
      },
    );
    const flood = writeFlood((await pending).res);
    await recording.waitFor((event) => event.kind === 'body');
    expect(valve.paused).toBe(true);
    const takenWhilePaused = taken;

    await until(() => flood.sawFalse, 20_000);
    const most = await observeWritten(flood, 750);
    expect(flood.blocked).toBe(true);
    expect(most).toBeLessThan(TOTAL / 2); // kernel socket buffers + undici's queue, far from 50 MB
    expect(taken).toBe(takenWhilePaused); // nothing read while paused

    valve.resume();
    expect(await recording.done).toEqual({});
    expect(taken).toBe(TOTAL);
    expect(recording.events.at(-1)).toMatchObject({ kind: 'end', content: { bytes: TOTAL }, isFinal: true });
  });

  it('the demand option pauses reads as well, and unsubscribing while paused closes the connection', async () => {
    const pending = server.nextRequest('/flood-cancel');
    const valve = new Valve();
    valve.pause();
    const recording = record(http(server.url('/flood-cancel'), undefined, { demand: valve }));
    const { res } = await pending;
    const serverSawClose = new Promise<void>((resolve) => res.once('close', resolve));
    const flood = writeFlood(res);
    await until(() => flood.sawFalse, 20_000);
    const most = await observeWritten(flood, 500);
    expect(most).toBeLessThan(TOTAL / 2);
    // Paused before the response event: not even that was emitted.
    expect(recording.events).toEqual([]);
    recording.subscription.unsubscribe();
    await serverSawClose;
    expect(res.writableFinished).toBe(false);
  });
});
