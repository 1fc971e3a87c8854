import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isCancelledError } from '../../src/core/errors/cancelled-error.js';
import { checkSequence } from '../../src/operators/check-sequence.js';
import { isHttpError } from '../../src/sources/http/http-error.js';
import { type HttpEvent, http } from '../../src/sources/http.js';
import { record } from '../fixtures/http-recorder.js';
import { startTestServer, type TestServer } from '../fixtures/http-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const bodyText = (events: HttpEvent[]) =>
  events
    .filter((event) => event.kind === 'body')
    .map((event) =>
      typeof event.content === 'string' ? event.content : Buffer.from(event.content).toString(),
    )
    .join('');
const isBody = (event: HttpEvent) => event.kind === 'body';
const closed = (emitter: NodeJS.EventEmitter) =>
  new Promise<void>((resolve) => emitter.once('close', resolve));

describe('http', () => {
  it('emits the response, the body bytes and one final end event, sequenced from 0', async () => {
    server.route('/hello', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-multi': ['a', 'b'] }).end('hello world');
    });
    const recording = record(http(server.url('/hello')).pipe(checkSequence()));
    expect(await recording.done).toEqual({});
    const [response, ...rest] = recording.events;
    expect(response).toEqual({
      sequence: 0,
      kind: 'response',
      content: {
        status: 200,
        statusText: 'OK',
        headers: expect.objectContaining({ 'content-type': 'text/plain', 'x-multi': 'a, b' }),
        url: server.url('/hello'),
      },
      isFinal: false,
    });
    const end = rest.at(-1);
    expect(end).toMatchObject({ kind: 'end', content: { status: 200, bytes: 11 }, isFinal: true });
    expect(end?.content).toEqual({ status: 200, bytes: 11, durationMs: expect.any(Number) });
    expect(
      rest.slice(0, -1).every((event) => event.kind === 'body' && event.content instanceof Uint8Array),
    ).toBe(true);
    expect(bodyText(recording.events)).toBe('hello world');
    expect(recording.events.map((event) => event.sequence)).toEqual(
      recording.events.map((_, index) => index),
    );
  });

  it('is cold: nothing is fetched before subscribe, and each subscription makes its own request', async () => {
    server.route('/cold', (_req, res) => res.end('x'));
    const fetchSpy = vi.fn(globalThis.fetch);
    const source = http(server.url('/cold'), undefined, { fetch: fetchSpy });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(server.hits('/cold')).toBe(0);
    await record(source).done;
    await record(source).done;
    expect(fetchSpy).toHaveBeenCalledTimes(2);
    expect(server.hits('/cold')).toBe(2);
  });

  it('sends the request init (method, headers, body)', async () => {
    server.route('/echo', (req, res) => {
      let received = '';
      req.setEncoding('utf8');
      req.on('data', (part: string) => {
        received += part;
      });
      req.on('end', () => res.end(`${req.method} ${req.headers['x-token']} ${received}`));
    });
    const init = { method: 'post', headers: { 'x-token': 't1' }, body: 'payload' };
    const recording = record(http(server.url('/echo'), init));
    expect(await recording.done).toEqual({});
    expect(bodyText(recording.events)).toBe('POST t1 payload');
  });

  it('streams a slow chunked body: the first chunk arrives before the server ends the response', async () => {
    const pending = server.nextRequest('/slow');
    const recording = record(http(server.url('/slow')));
    const { res } = await pending;
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write('first;');
    await recording.waitFor(isBody);
    expect(res.writableEnded).toBe(false);
    expect(bodyText(recording.events)).toBe('first;');
    res.write('second;');
    await recording.waitFor((event) => isBody(event) && bodyText(recording.events) === 'first;second;');
    expect(recording.events.at(-1)?.kind).toBe('body');
    res.end('third');
    expect(await recording.done).toEqual({});
    expect(bodyText(recording.events)).toBe('first;second;third');
    expect(recording.events.at(-1)).toMatchObject({ kind: 'end', content: { bytes: 18 }, isFinal: true });
  });

  it('lines: decodes UTF-8 lines with their newline, a character split across TCP writes whole', async () => {
    const pending = server.nextRequest('/lines');
    const recording = record(http(server.url('/lines'), undefined, { lines: true }));
    const { res } = await pending;
    const euro = Buffer.from('€'); // 3 bytes
    res.writeHead(200);
    res.write(Buffer.concat([Buffer.from('abc\n'), euro.subarray(0, 1)]));
    await recording.waitFor((event) => event.content === 'abc\n');
    res.write(euro.subarray(1, 2));
    res.write(Buffer.concat([euro.subarray(2), Buffer.from(' ok\nbad \xff\nlast', 'latin1')]));
    res.end();
    expect(await recording.done).toEqual({});
    const lines = recording.events.filter(isBody).map((event) => event.content);
    expect(lines).toEqual(['abc\n', '€ ok\n', 'bad \uFFFD\n', 'last']);
    expect(recording.events.at(-1)?.content).toMatchObject({ bytes: 4 + 3 + 4 + 6 + 4 });
  });

  it('lines: a line longer than maxLineBytes comes in pieces marked partial', async () => {
    server.route('/long-line', (_req, res) => res.end(`${'x'.repeat(10)}\nshort\n`));
    const recording = record(http(server.url('/long-line'), undefined, { lines: true, maxLineBytes: 4 }));
    expect(await recording.done).toEqual({});
    const pieces = recording.events.filter(isBody).map((event) => [event.content, event.metadata?.partial]);
    expect(pieces).toEqual([
      ['xxxx', true],
      ['xxxx', true],
      ['xx\n', undefined],
      ['shor', true],
      ['t\n', undefined],
    ]);
  });

  it('delivers a 20 MB body with the exact byte count and content', async () => {
    const size = 20 * 1024 * 1024;
    const serverHash = createHash('sha256');
    server.route('/large', (_req, res) => {
      res.writeHead(200, { 'content-length': String(size) });
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          const chunk = Buffer.alloc(Math.min(65_536, size - sent), sent % 251);
          serverHash.update(chunk);
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const clientHash = createHash('sha256');
    let bytes = 0;
    const recording = record(http(server.url('/large')), (event) => {
      if (event.kind !== 'body' || typeof event.content === 'string') return;
      bytes += event.content.byteLength;
      clientHash.update(event.content);
    });
    expect(await recording.done).toEqual({});
    expect(bytes).toBe(size);
    expect(recording.events.at(-1)?.content).toMatchObject({ status: 200, bytes: size });
    expect(clientHash.digest('hex')).toBe(serverHash.digest('hex'));
  });

  it('a non-2xx status errors with HTTP_STATUS (status, headers, start of the body) and emits nothing', async () => {
    server.route('/missing', (_req, res) => {
      res.writeHead(404, { 'x-why': 'gone', 'content-type': 'text/plain' }).end('not here');
    });
    const recording = record(http(server.url('/missing')));
    const { error } = await recording.done;
    expect(recording.events).toEqual([]);
    expect(isHttpError(error, 'HTTP_STATUS')).toBe(true);
    if (!isHttpError(error)) return;
    expect(error.message).toBe(`GET ${server.url('/missing')} responded 404 Not Found`);
    expect(error.info).toMatchObject({
      status: 404,
      statusText: 'Not Found',
      body: 'not here',
      bodyTruncated: false,
    });
    expect(error.info.headers).toMatchObject({ 'x-why': 'gone' });
  });

  it('HTTP_STATUS carries at most 64 KiB of the error body and says it was cut', async () => {
    server.route('/big-error', (_req, res) => res.writeHead(500).end('e'.repeat(200_000)));
    const { error } = await record(http(server.url('/big-error'))).done;
    expect(isHttpError(error, 'HTTP_STATUS')).toBe(true);
    expect((error as { info: { body: string } }).info.body).toBe('e'.repeat(65_536));
    expect(error).toMatchObject({ info: { status: 500, bodyTruncated: true } });
  });

  it('with reject: false a non-2xx response streams like any other', async () => {
    server.route('/missing-ok', (_req, res) => res.writeHead(404).end('not here'));
    const recording = record(http(server.url('/missing-ok'), undefined, { reject: false }));
    expect(await recording.done).toEqual({});
    expect(recording.events[0]).toMatchObject({ kind: 'response', content: { status: 404 } });
    expect(bodyText(recording.events)).toBe('not here');
    expect(recording.events.at(-1)).toMatchObject({
      kind: 'end',
      content: { status: 404, bytes: 8 },
      isFinal: true,
    });
  });

  it('a connection destroyed mid-body errors with HTTP_FAILED after the chunks already read', async () => {
    const pending = server.nextRequest('/drop');
    const recording = record(http(server.url('/drop')));
    const { res } = await pending;
    res.writeHead(200, { 'content-length': '1000' });
    res.write('part one;');
    await recording.waitFor(isBody);
    res.destroy();
    const { error } = await recording.done;
    expect(isHttpError(error, 'HTTP_FAILED')).toBe(true);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(error).toMatchObject({ info: { status: 200, bytes: 9 } });
    expect(recording.events.map((event) => event.kind)).toEqual(['response', 'body']);
    expect(bodyText(recording.events)).toBe('part one;');
  });

  it('lines: a dropped connection still delivers the line begun, then errors', async () => {
    const pending = server.nextRequest('/drop-lines');
    const recording = record(http(server.url('/drop-lines'), undefined, { lines: true }));
    const { res } = await pending;
    res.writeHead(200);
    res.write('one\ntw');
    await recording.waitFor((event) => event.content === 'one\n');
    res.destroy();
    const { error } = await recording.done;
    expect(isHttpError(error, 'HTTP_FAILED')).toBe(true);
    expect(recording.events.filter(isBody).map((event) => event.content)).toEqual(['one\n', 'tw']);
  });

  it('a refused connection errors with HTTP_FAILED (ECONNREFUSED in the cause)', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const recording = record(http(`http://127.0.0.1:${port}/`));
    const { error } = await recording.done;
    expect(recording.events).toEqual([]);
    expect(isHttpError(error, 'HTTP_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(((error as Error).cause as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect(error).toMatchObject({ info: { status: undefined, bytes: 0 } });
  });

  it('timeoutMs aborts the exchange with TIMEOUT, keeping the chunks already emitted', async () => {
    const pending = server.nextRequest('/hang');
    const recording = record(http(server.url('/hang'), undefined, { timeoutMs: 1_000 }));
    const { res } = await pending;
    const serverSawClose = closed(res);
    res.writeHead(200);
    res.write('early;');
    const { error } = await recording.done;
    expect(isHttpError(error, 'TIMEOUT')).toBe(true);
    expect(error).toMatchObject({ code: 'TIMEOUT', info: { timeoutMs: 1_000, status: 200, bytes: 6 } });
    expect((error as { info: { durationMs: number } }).info.durationMs).toBeGreaterThanOrEqual(1_000);
    expect(recording.events.map((event) => event.kind)).toEqual(['response', 'body']);
    expect(bodyText(recording.events)).toBe('early;');
    await serverSawClose;
    expect(res.writableEnded).toBe(false);
  });

  it('unsubscribing mid-body aborts the request: the server sees the connection close', async () => {
    const pending = server.nextRequest('/cancel');
    const recording = record(http(server.url('/cancel')));
    const { res } = await pending;
    const serverSawClose = closed(res);
    res.writeHead(200);
    res.write('x');
    await recording.waitFor(isBody);
    recording.subscription.unsubscribe();
    await serverSawClose;
    expect(res.writableEnded).toBe(false);
    expect(recording.events.map((event) => event.kind)).toEqual(['response', 'body']);
  });

  it('unsubscribing before the response arrives aborts the request too', async () => {
    const pending = server.nextRequest('/cancel-early');
    const recording = record(http(server.url('/cancel-early')));
    const { req, res } = await pending;
    const serverSawClose = closed(req.socket);
    recording.subscription.unsubscribe();
    await serverSawClose;
    expect(res.headersSent).toBe(false);
    expect(recording.events).toEqual([]);
  });

  it('an aborted init.signal fails the exchange with HTTP_FAILED', async () => {
    const pending = server.nextRequest('/outer-abort');
    const outer = new AbortController();
    const recording = record(http(server.url('/outer-abort'), { signal: outer.signal }));
    const { res } = await pending;
    const serverSawClose = closed(res);
    outer.abort();
    const { error } = await recording.done;
    expect(isHttpError(error, 'HTTP_FAILED')).toBe(true);
    expect((error as Error).cause).toMatchObject({ name: 'AbortError' });
    await serverSawClose;
  });

  it('cancelSignal: abort() closes the connection and errors CANCELLED with what arrived so far', async () => {
    const pending = server.nextRequest('/cancel-signal');
    const controller = new AbortController();
    const recording = record(
      http(server.url('/cancel-signal'), undefined, { cancelSignal: controller.signal }),
    );
    const { res } = await pending;
    const serverSawClose = closed(res);
    res.writeHead(200);
    res.write('abc');
    await recording.waitFor(isBody);
    controller.abort(new Error('no longer needed'));
    const { error } = await recording.done;
    expect(isCancelledError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'CANCELLED',
      message: `Request was cancelled (no longer needed): GET ${server.url('/cancel-signal')}`,
      info: { reason: new Error('no longer needed'), result: { status: 200, bytes: 3 } },
    });
    await serverSawClose;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('cancelSignal already aborted: nothing is fetched', async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await record(http(server.url('/never'), undefined, { cancelSignal: controller.signal }))
      .done;
    expect(error).toMatchObject({ code: 'CANCELLED', info: { result: { status: undefined, bytes: 0 } } });
    expect(server.hits('/never')).toBe(0);
  });
});
