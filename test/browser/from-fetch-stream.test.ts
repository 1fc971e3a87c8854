import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fromFetchStream } from '../../src/browser/from-fetch-stream.js';
import { isSluiceError } from '../../src/core/errors/sluice-error.js';
import { encodeChunkEvent } from '../../src/runs/sse/run-frames.js';
import { chunk } from '../support/chunk.js';

const line = (sequence: number, isFinal = false) =>
  encodeChunkEvent(chunk(sequence, `line ${sequence}`, isFinal, { kind: isFinal ? 'exit' : 'stdout' }));

/** A fetch that answers each call from a script and records the requests. */
function scriptedFetch(answers: Array<() => Response | Promise<Response>>) {
  const requests: Array<{ url: string; headers: Record<string, string>; signal: AbortSignal | undefined }> =
    [];
  const fetchFunction = (async (url: string, init: RequestInit = {}) => {
    requests.push({
      url,
      headers: { ...(init.headers as Record<string, string>) },
      signal: init.signal ?? undefined,
    });
    const answer = answers.shift();
    if (answer === undefined) throw new TypeError('no more answers');
    return answer();
  }) as unknown as typeof fetch;
  return { fetchFunction, requests };
}

const body = (...parts: string[]) =>
  new Response(parts.join(''), { headers: { 'content-type': 'text/event-stream' } });

describe('fromFetchStream', () => {
  it('reconnects with Last-Event-ID after a body that ends early and after a network error', async () => {
    const { fetchFunction, requests } = scriptedFetch([
      () => body('retry: 1\n\n', line(0), line(1)),
      () => Promise.reject(new TypeError('connection reset')),
      () => body(line(2), line(3, true)),
    ]);
    const events = await lastValueFrom(
      fromFetchStream('http://h/e', { fetch: fetchFunction }).pipe(toArray()),
    );
    expect(events.map((event) => event.sequence)).toEqual([0, 1, 2, 3]);
    expect(requests.map((request) => request.headers['last-event-id'])).toEqual([undefined, '1', '1']);
    expect(requests[0]?.headers.accept).toBe('text/event-stream');
  });

  it('follows from after a known event with `after`: resumes there and expects the next sequence', async () => {
    const { fetchFunction, requests } = scriptedFetch([() => body(line(42), line(43, true))]);
    const events = await lastValueFrom(
      fromFetchStream('http://h/e', { fetch: fetchFunction, after: 41 }).pipe(toArray()),
    );
    expect(events.map((event) => event.sequence)).toEqual([42, 43]);
    expect(requests.map((request) => request.headers['last-event-id'])).toEqual(['41']);
  });

  it('errors with HTTP_STATUS on a non-2xx answer, without retrying', async () => {
    const { fetchFunction, requests } = scriptedFetch([
      () => new Response('gone', { status: 404, statusText: 'Not Found' }),
    ]);
    const error = await lastValueFrom(fromFetchStream('http://h/e', { fetch: fetchFunction })).catch(
      (caught) => caught,
    );
    expect(isSluiceError(error, 'HTTP_STATUS')).toBe(true);
    expect((error as Error).message).toBe('The SSE stream http://h/e answered 404 Not Found');
    expect(requests.length).toBe(1);
  });

  it('gives up after maxRetries drops without an event', async () => {
    const { fetchFunction, requests } = scriptedFetch([
      () => body(line(0)),
      () => body(),
      () => body(),
      () => body(),
    ]);
    const error = await lastValueFrom(
      fromFetchStream('http://h/e', { fetch: fetchFunction, retryMs: 0, maxRetries: 2 }),
    ).catch((caught) => caught);
    expect(isSluiceError(error, 'HTTP_FAILED')).toBe(true);
    expect(requests.length).toBe(3); // the first connection and 2 retries
  });

  it('aborts the request when unsubscribed', async () => {
    let release!: () => void;
    const { fetchFunction, requests } = scriptedFetch([
      () =>
        new Response(
          new ReadableStream({
            start: (controller) => {
              controller.enqueue(new TextEncoder().encode(line(0)));
              release = () => controller.close();
            },
          }),
        ),
    ]);
    const seen: number[] = [];
    const subscription = fromFetchStream('http://h/e', { fetch: fetchFunction }).subscribe((event) =>
      seen.push(event.sequence),
    );
    const deadline = Date.now() + 5000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    subscription.unsubscribe();
    expect(requests[0]?.signal?.aborted).toBe(true);
    release();
    expect(seen).toEqual([0]);
  });

  it('validates its options before fetching', () => {
    const { fetchFunction, requests } = scriptedFetch([]);
    expect(() => fromFetchStream('http://h/e', { fetch: fetchFunction, retryMs: 1.5 })).toThrow(
      'Expected the `retryMs` option to be a non-negative integer, got `1.5` (number)',
    );
    expect(() =>
      fromFetchStream('http://h/e', { fetch: fetchFunction, credentials: 'all' as never }),
    ).toThrow(/`credentials` option/);
    expect(() => fromFetchStream('http://h/e', { headers: { a: 1 } as never })).toThrow(/`headers` option/);
    expect(() => fromFetchStream('http://h/e', { fetch: fetchFunction, retry: 5 } as never)).toThrow(
      /^Unknown `retry` option \(known options: maxRetries, retryMs, /,
    );
    expect(requests).toEqual([]);
  });
});
