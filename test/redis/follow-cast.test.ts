import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asciinemaCat, asciinemaPath } from '../support/asciinema.js';
import { redisForSuite, redisServerPath } from '../support/redis-server.js';
import { startCli } from '../support/sluice-cli.js';
import { needs } from '../support/system-tools.js';

describe.skipIf(redisServerPath === undefined || asciinemaPath === undefined || !needs('script'))(
  'sluice follow --cast',
  () => {
    const redis = redisForSuite({ store: {} });
    const folder = mkdtempSync(join(tmpdir(), 'sluice-follow-cast-'));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    it('writes the followed run as a cast that `asciinema cat` prints, and prints the run as without it', async () => {
      const runId = `cast-${randomUUID()}`;
      const writer = await startCli([
        'exec',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--',
        'sh',
        '-c',
        'printf "hello\\n"; printf "world\\n" >&2; exit 4',
      ]);
      expect(writer.exitCode, writer.stderr).toBe(4);
      const file = join(folder, 'run.cast');
      const followed = await startCli(['follow', '--redis', redis.url, runId, '--cast', file]);
      expect(followed.exitCode, followed.stderr).toBe(4);
      expect(followed.stdout).toBe('hello');
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(JSON.parse(lines[0] as string)).toMatchObject({ version: 2, width: 80, height: 24 });
      expect(lines.slice(1).map((line) => (JSON.parse(line) as unknown[])[2])).toEqual([
        'hello\n',
        'world\n',
      ]);
      expect(await asciinemaCat(file)).toBe('hello\nworld\n');
    }, 30_000);

    it('records a terminal run read back after its end at its size and with the times it ran at', async () => {
      const runId = `cast-tty-${randomUUID()}`;
      const started = Date.now();
      const script = 'echo one; sleep 1; echo two';
      const writer = await startCli([
        'exec',
        '--tty',
        '--redis',
        redis.url,
        '--run-id',
        runId,
        '--',
        'sh',
        '-c',
        script,
      ]);
      const ended = Date.now();
      expect(writer.exitCode, writer.stderr).toBe(0);
      const file = join(folder, 'tty.cast');
      const followed = await startCli(['follow', '--redis', redis.url, runId, '--cast', file]);
      expect(followed.exitCode, followed.stderr).toBe(0);
      const [header, ...events] = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      // The size the run was marked with (80 × 24: the writer's stdout is no terminal), and when it ran.
      expect(header).toMatchObject({ version: 2, width: 80, height: 24 });
      // Between this test's start and the writer's exit (the header holds whole seconds).
      expect(header.timestamp * 1000).toBeGreaterThanOrEqual(started - 1000);
      expect(header.timestamp * 1000).toBeLessThanOrEqual(ended);
      const text = events.map((event: unknown[]) => event[2]).join('');
      expect(text).toBe('one\r\ntwo\r\n');
      // `two` came a second after `one` when the run ran, though both were read at once afterwards.
      const two = events.find((event: unknown[]) => String(event[2]).includes('two')) as [number];
      expect(two[0]).toBeGreaterThanOrEqual(0.9);
      expect(await asciinemaCat(file)).toBe('one\ntwo\n');
    }, 30_000);

    it('a --cast path that cannot be written is a usage error (exit 2) naming the flag', async () => {
      const result = await startCli([
        'follow',
        '--redis',
        redis.url,
        'some-run',
        '--cast',
        join(folder, 'no', 'such', 'dir.cast'),
      ]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('Expected the `--cast` flag to be a file that can be written');
    });
  },
);
