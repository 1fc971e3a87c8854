import { execFileSync } from 'node:child_process';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, from, lastValueFrom, Observable, Subject, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fromFetchStream } from '../../../src/browser/from-fetch-stream.js';
import type { ChunkEvent, ChunkInput } from '../../../src/core/chunk.js';
import { isSequenceError } from '../../../src/core/errors/sequence-error.js';
import { isSluiceError, SluiceError } from '../../../src/core/errors/sluice-error.js';
import { sequenced } from '../../../src/operators/sequenced.js';
import { type SseMessage, SseParser } from '../../../src/runs/sse/sse-parser.js';
import type { SseStream } from '../../../src/runs/sse/sse-stream.js';
import { toServerSentEvents } from '../../../src/runs/sse/to-server-sent-events.js';
import { exec } from '../../../src/sources/exec.js';
import { needs } from '../../support/system-tools.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(stream: SseStream): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    stream.serve(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`, requests };
}

async function readAll(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; messages: SseMessage[]; text: string }> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, messages: new SseParser().push(text), text };
}

const lines = (count: number): ChunkInput<string>[] =>
  Array.from({ length: count }, (_, index) => ({
    kind: index % 3 === 0 ? 'stderr' : 'stdout',
    content: `line ${index}\n`,
  }));

const until = async (condition: () => boolean, what: string, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('toServerSentEvents over node:http', () => {
  it('resumes from every position of a recorded run, with a gap event for evicted positions', async () => {
    const stream = toServerSentEvents(from(lines(30)).pipe(sequenced<string>()), {
      replay: { maxEvents: 10 },
    });
    stream.start();
    expect(stream.ended).toBe(true);
    expect(stream.log.oldest).toBe(21); // 31 events (30 lines + the `end` sentinel), 10 kept
    const { url } = await serve(stream);
    for (let last = -1; last < 30; last += 1) {
      const { status, messages } = await readAll(url, last === -1 ? {} : { 'last-event-id': String(last) });
      expect(status).toBe(200);
      const next = last + 1;
      const expected: string[] = [];
      if (next < 21) expected.push(`gap ${JSON.stringify({ from: next, to: 20 })}`);
      for (let sequence = Math.max(next, 21); sequence <= 30; sequence += 1)
        expected.push(`event ${sequence}`);
      expect(
        messages.map((message) =>
          message.event === 'gap'
            ? `gap ${message.data}`
            : `event ${(JSON.parse(message.data) as ChunkEvent).sequence}`,
        ),
      ).toEqual(expected);
      for (const message of messages.filter((m) => m.event !== 'gap')) {
        const event = JSON.parse(message.data) as ChunkEvent<string>;
        expect(message.lastEventId).toBe(String(event.sequence));
        expect(message.event).toBe(event.kind);
        expect(event.content).toBe(event.sequence === 30 ? null : `line ${event.sequence}\n`);
      }
    }
    expect((await readAll(url, { 'last-event-id': '30' })).status).toBe(204);
    expect((await readAll(`${url}?lastEventId=28`)).messages.map((m) => m.lastEventId)).toEqual(['29', '30']);
    const ahead = await readAll(url, { 'last-event-id': '31' });
    expect(ahead.status).toBe(204);
    const bad = await readAll(url, { 'last-event-id': 'x1' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(
      'Expected the `Last-Event-ID` header to be a non-negative integer, got `x1` (string)',
    );
  });

  it('a follower resumes after a server-side drop with no lost and no duplicated event (fromFetchStream)', async () => {
    const input = new Subject<ChunkInput<string>>();
    const stream = toServerSentEvents(input.pipe(sequenced<string>()), { heartbeatMs: 0 });
    const { url, requests } = await serve(stream);
    const received: ChunkEvent[] = [];
    const done = lastValueFrom(fromFetchStream(url, { retryMs: 20 }).pipe(toArray()));
    const sub = fromFetchStream(url, { retryMs: 20 }).subscribe((event) => received.push(event));
    await until(() => stream.clients === 2, 'two clients');
    for (const line of lines(5)) input.next(line);
    await until(() => received.length === 5, 'the first five events');
    stream.disconnectClients();
    for (const line of lines(10).slice(5)) input.next(line); // while nobody is connected
    await until(() => stream.clients === 2, 'the reconnections');
    input.next({ kind: 'exit', content: 'done', isFinal: true });
    input.complete(); // a stream completes right after its final event
    const all = await done;
    expect(all.map((event) => event.sequence)).toEqual(Array.from({ length: 11 }, (_, index) => index));
    expect(all.map((event) => event.content)).toEqual([...lines(10).map((line) => line.content), 'done']);
    await until(() => received.length === 11, 'the other follower');
    expect(received).toEqual(all);
    sub.unsubscribe();
    expect(requests.map((request) => request.headers['last-event-id'])).toEqual([
      undefined,
      undefined,
      '4',
      '4',
    ]);
  });

  it('a follower that starts after events were evicted errors with a SequenceError (a gap is not a hole)', async () => {
    const stream = toServerSentEvents(from(lines(20)).pipe(sequenced<string>()), {
      replay: { maxEvents: 5 },
    });
    stream.start();
    const { url } = await serve(stream);
    const error = await lastValueFrom(fromFetchStream(url)).catch((caught: unknown) => caught);
    expect(isSequenceError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Replay gap: the server no longer holds events 0..15 (evicted from its replay log)',
    );
  });

  it("sends the source's failure after its events", async () => {
    const failing = new Observable<ChunkEvent<string>>((subscriber) => {
      subscriber.next({ sequence: 0, kind: 'stdout', content: 'partial', isFinal: false });
      subscriber.error(new SluiceError('EXEC_FAILED', 'Command failed with exit code 2'));
    });
    const { url } = await serve(toServerSentEvents(failing));
    const seen: unknown[] = [];
    const error = await lastValueFrom(fromFetchStream(url), { defaultValue: undefined })
      .then(() => undefined)
      .catch((caught: unknown) => caught);
    await firstValueFrom(fromFetchStream(url)).then((event) => seen.push(event.content));
    expect(seen).toEqual(['partial']);
    expect(isSluiceError(error, 'EXEC_FAILED')).toBe(true);
    expect((error as Error).message).toBe('Command failed with exit code 2');
  });

  it('serves a fetch-style Response that resumes after Last-Event-ID', async () => {
    const stream = toServerSentEvents(from(lines(4)).pipe(sequenced<string>()), {
      heartbeatMs: 0,
      retryMs: 250,
    });
    const response = stream.toResponse(new Request('http://x/run', { headers: { 'last-event-id': '1' } }));
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await response.text();
    expect(text.startsWith('retry: 250\n\n')).toBe(true);
    expect(new SseParser().push(text).map((message) => message.lastEventId)).toEqual(['2', '3', '4']);
    expect(stream.toResponse(new Request('http://x/run?lastEventId=4')).status).toBe(204);
  });

  it.skipIf(!needs('python3'))(
    'a slow client paces a demand-aware producer within the bounds; one slow client never holds back a fast one',
    async () => {
      // python3 blocks on its full pipe, so `exec` really stops when its demand is paused
      const script =
        'import sys\nfor i in range(1000): sys.stdout.write(str(i).rjust(8) + "x" * 32000 + "\\n")';
      const run = () => exec('python3', ['-c', script], { maxLineBytes: 65536, maxOutputBytes: 1024 });
      const bounds = { maxEvents: 16, maxBytes: 4 << 20 };

      // 1. one client that does not read: the producer pauses, then everything arrives when it reads
      const alone = toServerSentEvents(run(), { replay: bounds, heartbeatMs: 0 });
      const { url } = await serve(alone);
      const response = await new Promise<IncomingMessage>((resolve) => get(url, resolve));
      response.pause();
      await until(() => alone.paused, 'the producer to pause');
      expect(alone.log.next).toBeLessThan(1000);
      expect(alone.log.bytes).toBeLessThanOrEqual(bounds.maxBytes + 70_000);
      const parser = new SseParser();
      const sequences: number[] = [];
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        for (const message of parser.push(text)) sequences.push(Number(message.lastEventId));
      });
      response.resume();
      await new Promise((resolve) => response.on('end', resolve));
      expect(sequences).toEqual(Array.from({ length: 1001 }, (_, index) => index)); // no gap: it set the pace

      // 2. a fast and a stuck client: the producer runs at the fast one's pace; the stuck one gets a gap
      const shared = toServerSentEvents(run(), { replay: bounds, heartbeatMs: 0, stallTimeoutMs: 0 });
      const second = await serve(shared);
      const stuck = await new Promise<IncomingMessage>((resolve) => get(second.url, resolve));
      stuck.pause();
      const fast = await lastValueFrom(fromFetchStream(second.url).pipe(toArray()));
      expect(fast.map((event) => event.sequence)).toEqual(Array.from({ length: 1001 }, (_, index) => index));
      expect(shared.log.size).toBeLessThanOrEqual(bounds.maxEvents);
      const stuckParser = new SseParser();
      const stuckSeen: string[] = [];
      stuck.setEncoding('utf8');
      stuck.on('data', (text: string) => {
        for (const message of stuckParser.push(text))
          stuckSeen.push(message.event === 'gap' ? 'gap' : message.lastEventId);
      });
      stuck.resume();
      await new Promise((resolve) => stuck.on('end', resolve));
      const gapAt = stuckSeen.indexOf('gap');
      expect(gapAt).toBeGreaterThan(0);
      expect(stuckSeen.slice(0, gapAt)).toEqual(Array.from({ length: gapAt }, (_, index) => String(index)));
      expect(stuckSeen.at(-1)).toBe('1000');
      expect(stuckSeen.length - gapAt - 1).toBeLessThanOrEqual(bounds.maxEvents);
    },
  );

  it.skipIf(!needs('linux', 'ps'))(
    'DELETE cancels the run: the process group is killed and every client sees the cancelled sentinel',
    async () => {
      const stream = toServerSentEvents(
        exec('sh', ['-c', 'echo $$; sleep 300 & sleep 300 & wait'], { forceKillAfterMs: 500 }),
      );
      const { url } = await serve(stream);
      const followers = [
        lastValueFrom(fromFetchStream(url).pipe(toArray())),
        lastValueFrom(fromFetchStream(url).pipe(toArray())),
      ];
      const first = await firstValueFrom(fromFetchStream(url));
      const pgid = Number(first.content);
      expect(pgid).toBeGreaterThan(1);
      expect(
        execFileSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' })
          .trim()
          .split('\n').length,
      ).toBe(3);
      const answer = await fetch(url, { method: 'DELETE' });
      expect(answer.status).toBe(204);
      for (const events of await Promise.all(followers)) {
        expect(events.at(-1)).toEqual({
          sequence: 1,
          kind: 'end',
          content: null,
          metadata: { reason: 'cancelled' },
          isFinal: true,
        });
      }
      await until(() => {
        try {
          process.kill(-pgid, 0);
          return false;
        } catch (error) {
          return (error as NodeJS.ErrnoException).code === 'ESRCH';
        }
      }, 'the process group to be gone');
      expect(() => execFileSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' })).toThrow();
      expect(stream.cancel()).toBe(false);
    },
  );
});
