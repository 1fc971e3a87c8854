import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, lastValueFrom, NEVER, Subject, toArray, VirtualTimeScheduler } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFetchStream } from '../../src/browser/from-fetch-stream.js';
import type { ChunkEvent } from '../../src/core/chunk.js';
import { advanceVirtualTime } from '../../src/testing/virtual-host.js';
import { isRunLimitError } from '../../src/web/run-limit-error.js';
import { RunRegistry } from '../../src/web/run-registry.js';
import { chunk } from '../support/chunk.js';
import { macrotask } from '../support/macrotask.js';
import { pollUntil } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (count: number, width = 8): ChunkEvent<unknown>[] => [
  ...Array.from({ length: count }, (_, sequence) =>
    chunk(sequence, `line ${sequence}`.padEnd(width, '.') + '\n', false, {
      kind: sequence % 3 === 2 ? 'stderr' : 'stdout',
    }),
  ),
  chunk(count, { exitCode: 0 }, true, { kind: 'exit' }),
];

/** Runs what is due up to `frame`, and leaves the clock there. */
const advanceTo = (clock: VirtualTimeScheduler, frame: number) =>
  advanceVirtualTime(clock, frame - clock.now());

/** Serves `registry.get(id).follow` on a real loopback server. */
async function serveRuns(registry: RunRegistry) {
  const server = createServer((req, res) => {
    const run = registry.get(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    if (run === undefined) res.writeHead(404).end();
    else run.follow(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (id: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/${id}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A viewer that connects and then does not read (its response stays open). */
function stuckViewer(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      res.pause();
      resolve(res);
    }).on('error', reject);
  });
}

describe('RunRegistry', () => {
  it('frees an ended run with no viewer retainMs after it ended: forgotten, its log file deleted', async () => {
    const scheduler = new VirtualTimeScheduler();
    const registry = new RunRegistry({ retainMs: 60_000, logDir: dir, scheduler });
    const run = registry.start(from(lines(5)), { command: 'five lines', id: 'five' });
    await macrotask();
    expect(run.ended).toBe(true);
    expect(run.endedAt).toBe(0);
    await run.log?.end();
    // stdout and stderr, interleaved as they came
    expect(readFileSync(join(dir, 'five.log'), 'utf8')).toBe(
      'line 0..\nline 1..\nline 2..\nline 3..\nline 4..\n',
    );
    advanceTo(scheduler, 59_999);
    expect(registry.get('five')).toBe(run);
    advanceTo(scheduler, 60_000);
    expect(registry.get('five')).toBeUndefined();
    expect(registry.size).toBe(0);
    expect(run.freed).toBe(true);
    expect(await pollUntil(() => !existsSync(join(dir, 'five.log')), 5000)).toBe(true);
    registry.close();
  });

  it('holds an ended run while a viewer is attached; retainMs counts from when the last viewer left', async () => {
    const scheduler = new VirtualTimeScheduler();
    const registry = new RunRegistry({ retainMs: 1000, logDir: false, scheduler });
    const run = registry.start(from(lines(40_000, 100)), { id: 'big' }); // ~6 MB of frames
    await macrotask();
    expect(run.ended).toBe(true);
    const server = await serveRuns(registry);

    advanceTo(scheduler, 500);
    const viewer = await stuckViewer(server.url('big'));
    expect(await pollUntil(() => run.viewers === 1, 5000)).toBe(true);
    advanceTo(scheduler, 5000); // long past retainMs: the viewer holds the run
    expect(registry.get('big')).toBe(run);

    viewer.destroy();
    expect(await pollUntil(() => run.viewers === 0, 5000)).toBe(true);
    advanceTo(scheduler, 5999);
    expect(registry.get('big')).toBe(run);
    advanceTo(scheduler, 6000);
    expect(registry.get('big')).toBeUndefined();

    // A reload after the run was freed finds nothing.
    const late = await fetch(server.url('big'));
    expect(late.status).toBe(404);
    await server.close();
    registry.close();
  });

  it('a viewer of an ended run gets every event, then the run is freed once it has left', async () => {
    const scheduler = new VirtualTimeScheduler();
    const registry = new RunRegistry({ retainMs: 0, logDir: false, scheduler });
    const source = new Subject<ChunkEvent<unknown>>();
    const run = registry.start(source, { id: 'live' });
    const server = await serveRuns(registry);
    const seen = lastValueFrom(fromFetchStream(server.url('live')).pipe(toArray()));
    expect(await pollUntil(() => run.viewers === 1, 5000)).toBe(true);
    for (const event of lines(3)) source.next(event);
    source.complete(); // a stream completes right after its final event (docs/protocol.md, "Composed runs")
    expect((await seen).map((event) => event.kind)).toEqual(['stdout', 'stdout', 'stderr', 'exit']);
    expect(await pollUntil(() => run.viewers === 0, 5000)).toBe(true);
    advanceTo(scheduler, 0);
    expect(registry.size).toBe(0);
    await server.close();
    registry.close();
  });

  it('refuses a run past maxRuns (RUN_LIMIT) and keeps at most maxFinishedRuns ended runs, oldest freed first', async () => {
    const registry = new RunRegistry({ maxRuns: 2, maxFinishedRuns: 2, logDir: false });
    const first = registry.start(NEVER, { id: 'a' });
    registry.start(NEVER, { id: 'b' });
    let refused: unknown;
    try {
      registry.start(NEVER, { id: 'c' });
    } catch (error) {
      refused = error;
    }
    expect(isRunLimitError(refused) && refused.message).toBe(
      'Run limit reached: 2 runs are already running (maxRuns)',
    );
    first.cancel();
    await macrotask();
    registry.start(from(lines(1)), { id: 'c' });
    registry.start(from(lines(1)), { id: 'd' });
    await macrotask();
    expect([...registry].map((run) => run.id)).toEqual(['b', 'c', 'd']); // `a` ended first: freed
    expect(registry.running).toBe(1);
    registry.close();
  });

  it('close() stops every running run (by: server), and its viewers are told', async () => {
    const registry = new RunRegistry({ logDir: false });
    registry.start(NEVER, { id: 'forever' });
    const server = await serveRuns(registry);
    const seen = lastValueFrom(fromFetchStream(server.url('forever')).pipe(toArray()));
    expect(await pollUntil(() => registry.get('forever')?.viewers === 1, 5000)).toBe(true);
    registry.close();
    expect(await seen).toEqual([
      {
        sequence: 0,
        kind: 'end',
        content: null,
        metadata: { by: 'server', reason: 'cancelled' },
        isFinal: true,
      },
    ]);
    expect(registry.size).toBe(0);
    expect(() => registry.start(NEVER)).toThrow('This run registry is closed');
    await server.close();
  });

  it("checks its options and start()'s by hand, naming them", () => {
    expect(() => new RunRegistry({ maxRuns: 0 })).toThrow(
      'Expected the `maxRuns` option to be a positive integer, got `0` (number)',
    );
    expect(() => new RunRegistry({ retainMs: -1 })).toThrow(
      'Expected the `retainMs` option to be a non-negative integer, got `-1` (number)',
    );
    expect(() => new RunRegistry({ replay: { maxEvent: 5 } } as never)).toThrow(
      'Unknown `replay.maxEvent` option (known options: maxEvents, maxBytes)',
    );
    expect(() => new RunRegistry({ logDir: '' })).toThrow(
      'Expected the `logDir` option to be a folder path or false',
    );
    const registry = new RunRegistry({ logDir: false });
    expect(() => registry.start(NEVER, { id: '../x' })).toThrow(
      'Expected the `id` option to be a string of 1 to 200 letters, digits, `.`, `_`, `:` or `-`',
    );
    registry.start(NEVER, { id: 'one' });
    expect(() => registry.start(NEVER, { id: 'one' })).toThrow('A run with id `one` is already held');
    expect(() => registry.start('ls' as never)).toThrow('Expected the `source` argument to be an Observable');
    registry.close();
  });
});
