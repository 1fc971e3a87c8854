import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRunStore } from '../../src/redis/redis-run-store.js';
import { runKeys } from '../../src/redis/run-keys.js';
import { type RedisServer, redisServerPath, startRedis } from '../support/redis-server.js';
import { CLI } from '../support/sluice-cli.js';
import { newSpanFile, readSpanFile, SPAN_FILE_SETUP } from '../support/span-file.js';

/** The CLI traced as docs/tracing.md says: the SDK set up by a file loaded with `--import`. */
function tracedCli(args: readonly string[], spans: string, env: Record<string, string> = {}) {
  return execa(process.execPath, ['--import', SPAN_FILE_SETUP, CLI, ...args], {
    reject: false,
    env: { SLUICE_TEST_SPANS: spans, ...env },
  });
}

const SUBMITTER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

describe.skipIf(redisServerPath === undefined)('a Redis run keeps its trace (submit, worker, follow)', () => {
  let server: RedisServer;
  let store: RedisRunStore;
  beforeAll(async () => {
    server = await startRedis();
    store = new RedisRunStore({ url: server.url, blockMs: 200 });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it('the worker’s span of a job is the child of the submitter’s TRACEPARENT; a follower’s span links to it', async () => {
    const spans = { submit: newSpanFile(), worker: newSpanFile(), follow: newSpanFile() };
    const worker = tracedCli(['worker', '--redis', server.url], spans.worker);
    const submitted = await tracedCli(
      ['submit', '--redis', server.url, '--', 'sh', '-c', 'echo traced; exit 4'],
      spans.submit,
      { TRACEPARENT: `00-${SUBMITTER.traceId}-${SUBMITTER.spanId}-01`, TRACESTATE: 'ci=7' },
    );
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const runId = submitted.stdout.trim();
    const followed = await tracedCli(['follow', '--redis', server.url, runId], spans.follow);
    expect(followed.exitCode, followed.stderr).toBe(4);
    expect(followed.stdout).toBe('traced');
    worker.kill('SIGTERM');
    expect((await worker).exitCode).toBe(0);

    const job = readSpanFile(spans.worker).find((span) => span.name === 'process sluice:queue');
    expect(job).toMatchObject({
      kind: 4, // consumer
      traceId: SUBMITTER.traceId,
      parentSpanId: SUBMITTER.spanId,
      traceState: 'ci=7',
      attributes: {
        'sluice.run.kind': 'worker',
        'sluice.run.id': runId,
        'messaging.destination.name': 'sluice:queue',
        'messaging.consumer.group.name': 'workers',
        'sluice.end_reason': 'exit',
        'process.exit.code': 4,
        'error.type': '4',
      },
      status: { code: 2, message: 'exit code 4' }, // an error, as the command's own span says
    });
    // The command's run is the job span's child.
    const run = readSpanFile(spans.worker).find((span) => span.name === 'exec sh');
    expect(run).toMatchObject({ traceId: SUBMITTER.traceId, parentSpanId: job?.spanId });
    // The run stores the context it was written in: the worker's span of it.
    const [traceparent, tracestate] = await store.client.hmget(
      runKeys('sluice', runId).meta,
      'traceparent',
      'tracestate',
    );
    expect(traceparent).toBe(`00-${SUBMITTER.traceId}-${job?.spanId}-01`);
    expect(tracestate).toBe('ci=7');

    const follow = readSpanFile(spans.follow).find((span) => span.name === 'follow run');
    expect(follow).toMatchObject({
      kind: 4,
      links: [{ traceId: SUBMITTER.traceId, spanId: job?.spanId }], // linked to the run's trace…
      attributes: { 'sluice.run.id': runId, 'sluice.end_reason': 'complete', 'sluice.lines': 2 },
    });
    // …while no TRACEPARENT here: a trace of its own.
    expect(follow?.parentSpanId).toBeUndefined();
    expect(follow?.traceId).not.toBe(SUBMITTER.traceId);
  });
});
