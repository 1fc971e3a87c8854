import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { outcomesOf, sequencesOf, startCli } from '../support/sluice-cli.js';

describe.skipIf(redisServerPath === undefined)(
  'sluice exec --redis / follow: whole logs, gaps said, one output format',
  () => {
    const redis = redisForSuite({ store: {} });

    it('a 200 000-line run written with the defaults is followed whole after it ended, from another process', async () => {
      const runId = `whole-${randomUUID()}`;
      const script = 'seq 1 200000; exit 3';
      const writer = await startCli([
        'exec',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--',
        'sh',
        '-c',
        script,
      ]);
      expect(writer.exitCode, writer.stderr).toBe(3);
      expect(await redis.store.info(runId)).toMatchObject({ state: 'ended', next: 200_001, oldest: 0 });
      const text = await startCli(['follow', '--redis', redis.url, runId]);
      expect(text.exitCode, text.stderr).toBe(3);
      expect(text.stderr).toBe('');
      const lines = text.stdout.split('\n');
      expect(lines.length).toBe(200_000);
      expect(lines[0]).toBe('1');
      expect(lines[199_999]).toBe('200000');
      const json = await startCli(['follow', '--redis', redis.url, runId, '--json']);
      expect(json.exitCode).toBe(3);
      expect(sequencesOf(json.stdout)).toEqual([...Array(200_001).keys()]);
      expect(outcomesOf(json.stdout).at(-1)).toMatchObject({ ok: false, code: 'EXEC_FAILED' });
    }, 120_000);

    it('a run past its retention: the gap is said (stderr; a gap chunk in JSON), then the tail, and the exit code', async () => {
      const runId = `trimmed-${randomUUID()}`;
      const writer = await startCli([
        'exec',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--max-events',
        '1000',
        '--',
        'sh',
        '-c',
        'seq 1 20000; exit 5',
      ]);
      expect(writer.exitCode).toBe(5);
      const info = await redis.store.info(runId);
      const oldest = info?.oldest ?? 0;
      // 20 001 events (20 000 lines and the end): retention keeps at least the newest 1 000, and
      // trims whole entries, so at most one more batch (the writer's default maxBatchEvents, 1 024,
      // which a loaded machine fills) straddles the cut.
      expect(oldest).toBeLessThanOrEqual(20_001 - 1000);
      expect(oldest).toBeGreaterThanOrEqual(20_001 - 1000 - 1024);
      const text = await startCli(['follow', '--redis', redis.url, runId]);
      expect(text.exitCode).toBe(5);
      expect(text.stderr).toBe(
        `sluice: run ${runId}: events 0..${oldest - 1} (${oldest}) were trimmed by the store's retention; following from ${oldest}`,
      );
      const lines = text.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(String(oldest + 1));
      expect(lines.at(-1)).toBe('20000');
      const json = await startCli(['follow', '--redis', redis.url, runId, '--json']);
      expect(json.exitCode).toBe(5);
      const outcomes = outcomesOf(json.stdout);
      expect(outcomes[0]).toEqual({
        ok: true,
        stream: true,
        sequence: 0,
        isFinal: false,
        chunk: { gap: { from: 0, to: oldest - 1 } },
      });
      expect(outcomes[1]).toMatchObject({ sequence: oldest, chunk: `${oldest + 1}\n` });
      expect(outcomes.at(-1)).toMatchObject({ ok: false, code: 'EXEC_FAILED' });
    }, 60_000);

    it('exec --json, exec --redis --json and follow --json write the same frames (both wires)', async () => {
      const script = 'echo out; echo err >&2; echo more; exit 4';
      for (const wire of ['bridge', 'serde']) {
        const runId = `frames-${wire}-${randomUUID()}`;
        const plain = await startCli(['exec', '--json', '--wire', wire, '--', 'sh', '-c', script]);
        const published = await startCli([
          'exec',
          '--redis',
          redis.url,
          '--run-id',
          runId,
          '--json',
          '--wire',
          wire,
          '--',
          'sh',
          '-c',
          script,
        ]);
        const followed = await startCli(['follow', '--redis', redis.url, runId, '--json', '--wire', wire]);
        const stable = (stdout: string) =>
          stdout.replace(/"duration_ms":\d+/g, '"duration_ms":0').split('\n');
        expect(plain.exitCode).toBe(4);
        expect(published.exitCode).toBe(4);
        expect(followed.exitCode).toBe(4);
        // stdout and stderr lines are read from two pipes: their order may differ between runs.
        const sorted = (stdout: string) => stable(stdout).slice(0, 3).sort();
        expect(sorted(published.stdout)).toEqual(sorted(plain.stdout));
        expect(stable(published.stdout).slice(3)).toEqual(stable(plain.stdout).slice(3));
        expect(stable(followed.stdout)).toEqual(stable(published.stdout));
        expect(stable(plain.stdout).at(-1)).toContain('EXEC_FAILED');
      }
    }, 60_000);
  },
);
