import { concat, finalize, NEVER, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../../src/core/chunk.js';
import { connectExtension, internalized } from '../../../src/kernel/bridge/connect-extension.js';
import { createHost } from '../../../src/kernel/host/create-host.js';
import type { JsonValue } from '../../../src/kernel/protocol/json-value.js';
import { chunk } from '../../support/chunk.js';

const event = (content: JsonValue, sequence: number): ChunkEvent<JsonValue> =>
  chunk(sequence, content, false, { kind: 'chunk' });

describe('connectExtension — the in-process delivery', () => {
  it('delivers scalar and object chunks, and still rejects one that is not JSON (INVALID_FRAME, stream cancelled)', async () => {
    let unsubscribed = false;
    const host = createHost({
      logger: { warn: () => {} },
      producers: {
        exec: () =>
          concat(
            of(event('ok\n', 0), event({ stderr: 'warn\n' }, 1), event({ at: new Date(0) } as never, 2)),
            NEVER,
          ).pipe(finalize(() => (unsubscribed = true))),
      },
    });
    const { api, bridge } = connectExtension(host, 'ext-a');
    const stream = api.exec('make', { stream: true, bufferSize: 4 });
    const got: JsonValue[] = [];
    let failure: unknown;
    try {
      for await (const chunk of stream) got.push(chunk);
    } catch (error) {
      failure = error;
    }
    expect(got).toEqual(['ok\n', { stderr: 'warn\n' }]);
    expect(failure).toMatchObject({
      code: 'INVALID_FRAME',
      message: expect.stringContaining('plain object'),
    });
    expect(bridge.stats.invalid).toBe(1);
    expect(unsubscribed).toBe(true);
    expect(host.activeStreams()).toEqual([]);
  });
  it('disconnect stops the deliveries to this extension only: its outcomes are counted undeliverable', async () => {
    const host = createHost({
      logger: { warn: () => {} },
      producers: { exec: () => of(event('line\n', 0)) },
    });
    const a = connectExtension(host, 'ext-a');
    const b = connectExtension(host, 'ext-b');
    // A pull of ext-a's stream (its first next()), then the disconnect, before the host delivers.
    void a.api.exec('make', { stream: true }).next();
    a.disconnect();
    const got: JsonValue[] = [];
    for await (const line of b.api.exec('make', { stream: true })) got.push(line);
    expect(got).toEqual(['line\n']);
    // ext-a's line and its end (the null sentinel) had no connection to go to.
    expect(host.stats.undeliverable).toBe(2);
    expect(a.bridge.pending()).toEqual(['ext-a:hc-1']);
  });
});

describe('internalized', () => {
  it('gives back the same characters for any string, including keys an object treats specially', () => {
    const n = 7;
    for (const text of [
      `ext-a:hc-${n}`,
      '',
      '123',
      '4294967295',
      '-0',
      '__proto__',
      'constructor',
      'ü\u{1F600}',
    ]) {
      expect(internalized(text)).toBe(text);
    }
  });

  it('passes anything that is no string on unchanged', () => {
    const id = { id: 1 };
    expect(internalized(id)).toBe(id);
    expect(internalized(42)).toBe(42);
    expect(internalized(undefined)).toBeUndefined();
  });

  it('leaves the ids connectExtension makes and the ones it is given as they were', async () => {
    const host = createHost({ logger: { warn() {} } });
    const made = connectExtension(host, `ext-${'a'}`);
    expect(made.extensionId).toBe('ext-a');
    made.bridge.call('ui', { prompt: 'x' }).catch(() => {});
    expect(made.bridge.pending()).toEqual(['ext-a:hc-1']);
    let n = 0;
    const callIds = () => {
      n += 1;
      return `call-${n}`;
    };
    const given = connectExtension(host, 'ext-b', { callIds });
    given.bridge.call('ui', { prompt: 'x' }).catch(() => {});
    expect(given.bridge.pending()).toEqual(['call-1']);
  });
});
