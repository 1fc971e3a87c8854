import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concatMap, from, lastValueFrom, type Observable, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { isSequenceError } from '../../src/core/errors/sequence-error.js';
import { isSluiceError } from '../../src/core/errors/sluice-error.js';
import { checkSequence } from '../../src/operators/check-sequence.js';
import { joinRuns } from '../../src/operators/join-runs.js';
import { sequenced } from '../../src/operators/sequenced.js';
import { fromRunStore } from '../../src/runs/follow-run.js';
import { MemoryRunStore } from '../../src/runs/memory-run-store.js';
import type { SseMessage } from '../../src/runs/sse/sse-parser.js';
import { toServerSentEvents } from '../../src/runs/sse/to-server-sent-events.js';
import { toRunStore } from '../../src/runs/to-run-store.js';
import { exec } from '../../src/sources/exec.js';
import { pollUntil, processesWithTag } from '../support/processes.js';
import { readSse } from '../support/read-sse.js';
import { needs } from '../support/system-tools.js';

const folders: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * Three real commands queued with RxJS's own `concatMap`. Each leaves a file behind once it ran to
 * its end; the second keeps running until it is killed when `endless`, and every command carries
 * `tag` in its command line, so a test can tell what ran and what is left.
 */
function queue(endless: boolean) {
  const folder = mkdtempSync(join(tmpdir(), 'sluice-queue-'));
  folders.push(folder);
  const tag = `sluice-queue-${process.pid}-${folders.length}-${Date.now()}`;
  const second = endless ? 'while :; do sleep 0.05; done; ' : '';
  const commands: [string, string[]][] = [
    ['sh', ['-c', `echo one; touch ${folder}/one # ${tag}`]],
    ['sh', ['-c', `echo two; ${second}touch ${folder}/two # ${tag}`]],
    ['sh', ['-c', `echo three; touch ${folder}/three # ${tag}`]],
  ];
  const events: Observable<ChunkEvent<unknown>> = from(commands).pipe(
    concatMap(([file, args]) => exec(file, args)),
  );
  const ran = () => ['one', 'two', 'three'].filter((name) => existsSync(join(folder, name)));
  return { events, tag, ran };
}

/** The documented form: one contiguous sequence, each run's end kept, one final event at the very end. */
function expectOneStream(events: readonly ChunkEvent<unknown>[]): void {
  expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index));
  expect(events.filter((event) => event.isFinal)).toEqual([
    { sequence: events.length - 1, kind: 'end', content: null, metadata: { runs: 3 }, isFinal: true },
  ]);
  const outputs = events.filter((event) => event.kind === 'stdout').map((event) => event.content);
  expect(outputs).toEqual(['one\n', 'two\n', 'three\n']);
  const ends = events.filter((event) => event.kind === 'exit');
  expect(
    ends.map((event) => [event.metadata?.run, (event.content as { exitCode: number }).exitCode]),
  ).toEqual([
    [0, 0],
    [1, 0],
    [2, 0],
  ]);
}

/** The error form: a `STREAM_SEQUENCE` error naming the remedy, the running command killed, the third never started. */
async function expectLoudError(error: unknown, tag: string, ran: () => string[]): Promise<void> {
  expect(isSluiceError(error) && error.code).toBe('STREAM_SEQUENCE');
  expect((error as Error).message).toContain('add joinRuns() after them');
  await expectStopped(tag, ran);
}

/** The second command (endless) is killed, the third never started. */
async function expectStopped(tag: string, ran: () => string[]): Promise<void> {
  expect(await pollUntil(() => processesWithTag(tag).length === 0, 10_000)).toBe(true);
  expect(ran()).toEqual(['one']);
}

/** Subscribes and resolves with what came and how it ended (the error, or `'completed'`). */
function settle(events: Observable<ChunkEvent<unknown>>) {
  const seen: string[] = [];
  const ended = new Promise<unknown>((resolve) => {
    events.subscribe({
      next: (event) => seen.push(`${event.sequence}:${event.kind}${event.isFinal ? '!' : ''}`),
      error: resolve,
      complete: () => resolve('completed'),
    });
  });
  return { seen, ended };
}

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`;
}

const parsed = (messages: readonly SseMessage[]) =>
  messages.map((message) => ({ event: message.event, data: JSON.parse(message.data) }));

describe.skipIf(!needs('linux'))('a queue of three real commands (concatMap of exec)', () => {
  describe('joined with joinRuns(): all three run, one sequenced stream', () => {
    it('through sequenced()', async () => {
      const { events, ran } = queue(false);
      const seen = await lastValueFrom(events.pipe(joinRuns(), sequenced(), toArray()));
      expectOneStream(seen);
      expect(ran()).toEqual(['one', 'two', 'three']);
    });

    it('through checkSequence()', async () => {
      const { events, ran } = queue(false);
      expectOneStream(await lastValueFrom(events.pipe(joinRuns(), checkSequence(), toArray())));
      expect(ran()).toEqual(['one', 'two', 'three']);
    });

    it('through toRunStore(), followed by fromRunStore()', async () => {
      const { events, ran } = queue(false);
      const store = new MemoryRunStore();
      const published = await lastValueFrom(events.pipe(joinRuns(), toRunStore(store, 'q1'), toArray()));
      expectOneStream(published);
      expect(await lastValueFrom(fromRunStore(store, 'q1').pipe(toArray()))).toEqual(published);
      expect(ran()).toEqual(['one', 'two', 'three']);
    });

    it('through toServerSentEvents()', async () => {
      const { events, ran } = queue(false);
      const stream = toServerSentEvents(events.pipe(joinRuns()), { heartbeatMs: 0 });
      const url = await serve((req, res) => stream.serve(req, res));
      const { messages } = await readSse(url);
      expectOneStream(parsed(messages).map((message) => message.data));
      expect(ran()).toEqual(['one', 'two', 'three']);
    });
  });

  describe('not joined: a typed error at once, never an early completion', () => {
    it('through sequenced()', async () => {
      const { events, tag, ran } = queue(true);
      const { seen, ended } = settle(events.pipe(sequenced()));
      const error = await ended;
      await expectLoudError(error, tag, ran);
      expect(isSequenceError(error) && error.info?.rule).toBe('final-before-complete');
      // The first run's final event is never emitted: it would not be the last.
      expect(seen).toEqual(['0:stdout']);
    });

    it('through checkSequence()', async () => {
      const { events, tag, ran } = queue(true);
      const { seen, ended } = settle(events.pipe(checkSequence()));
      await expectLoudError(await ended, tag, ran);
      // checkSequence forwards the first run's final event, then the error for what followed it.
      expect(seen).toEqual(['0:stdout', '1:exit!']);
    });

    it('through toRunStore(): the output errors and every follower gets the failure, not an end', async () => {
      const { events, tag, ran } = queue(true);
      const store = new MemoryRunStore();
      const output = lastValueFrom(events.pipe(toRunStore(store, 'q2'), toArray())).catch(
        (caught: unknown) => caught,
      );
      const followed: ChunkEvent<unknown>[] = [];
      const follower = new Promise((resolve) => {
        fromRunStore(store, 'q2').subscribe({
          next: (event) => followed.push(event),
          error: resolve,
          complete: () => resolve('completed'),
        });
      });
      await expectLoudError(await output, tag, ran);
      const failure = await follower;
      expect(isSluiceError(failure) && failure.code).toBe('STREAM_SEQUENCE');
      expect((failure as Error).message).toContain('add joinRuns() after them');
      expect(followed.map((event) => [event.kind, event.isFinal])).toEqual([['stdout', false]]);
    });

    it('through toServerSentEvents(): clients get the failure, never a final event', async () => {
      const { events, tag, ran } = queue(true);
      const stream = toServerSentEvents(events, { heartbeatMs: 0 });
      const url = await serve((req, res) => stream.serve(req, res));
      const { messages } = await readSse(url);
      const [first, failure, ...rest] = parsed(messages);
      expect(first?.data).toMatchObject({ sequence: 0, kind: 'stdout', content: 'one\n', isFinal: false });
      expect(failure?.event).toBe('failure');
      expect(failure?.data).toMatchObject({ code: 'STREAM_SEQUENCE' });
      expect(failure?.data.message).toContain('add joinRuns() after them');
      expect(rest).toEqual([]);
      await expectStopped(tag, ran);
    });
  });
});
