import { asyncScheduler, queueScheduler } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { Valve } from '../../../src/core/demand.js';
import { readHttpOptions, readHttpRequest } from '../../../src/sources/http/read-http-options.js';
import { http } from '../../../src/sources/http.js';

describe('readHttpOptions', () => {
  it('applies the defaults', () => {
    expect(readHttpOptions(undefined)).toEqual({
      lines: false,
      maxLineBytes: 65_536,
      timeoutMs: 0,
      reject: true,
      scheduler: asyncScheduler,
      demand: undefined,
      fetch: globalThis.fetch,
      propagateTrace: true,
    });
  });

  it('keeps the validated originals (a scheduler, a Valve, a fetch keep their identity)', () => {
    const valve = new Valve();
    const fetch = vi.fn();
    const options = { scheduler: queueScheduler, demand: valve, fetch, lines: true, maxLineBytes: 4 };
    const resolved = readHttpOptions(options);
    expect(resolved.scheduler).toBe(queueScheduler);
    expect(resolved.demand).toBe(valve);
    expect(resolved.fetch).toBe(fetch);
    expect(resolved).toMatchObject({ lines: true, maxLineBytes: 4 });
  });

  it.each([
    [{ timeoutMs: -1 }, 'Expected the `timeoutMs` option to be a non-negative integer, got `-1` (number)'],
    [{ timeoutMs: 1.5 }, 'Expected the `timeoutMs` option to be a non-negative integer, got `1.5` (number)'],
    [
      { timeoutMs: 2 ** 31 },
      'Expected the `timeoutMs` option to be a non-negative integer up to 2147483647, got `2147483648` (number)',
    ],
    [{ maxLineBytes: 0 }, 'Expected the `maxLineBytes` option to be a positive integer, got `0` (number)'],
    [{ lines: 'yes' }, 'Expected the `lines` option to be a boolean, got `yes` (string)'],
    [{ reject: null }, 'Expected the `reject` option to be a boolean, got `null` (null)'],
    [{ scheduler: {} }, 'Expected the `scheduler` option to be a SchedulerLike, got `{}` (object)'],
    [
      { demand: { paused: 'no', onChange() {} } },
      'Expected the `demand` option to be a Demand (`paused` and `onChange()`), got `{"paused":"no"}` (object)',
    ],
    [{ fetch: 'curl' }, 'Expected the `fetch` option to be a function, got `curl` (string)'],
    [
      { cancelSignal: 'stop' },
      'Expected the `cancelSignal` option to be an AbortSignal, got `stop` (string)',
    ],
    [{ propagateTrace: 0 }, 'Expected the `propagateTrace` option to be a boolean, got `0` (number)'],
    [
      { timeout: 5 },
      'Unknown `timeout` option (known options: lines, maxLineBytes, timeoutMs, reject, scheduler, demand, fetch, cancelSignal, propagateTrace)',
    ],
  ])('rejects %j with a TypeError naming the option', (options, message) => {
    expect(() => readHttpOptions(options as never)).toThrow(new TypeError(message));
  });

  it('rejects options that are not an object', () => {
    expect(() => readHttpOptions([] as never)).toThrow(
      new TypeError('Expected the `options` argument to be an object, got `[]` (array)'),
    );
  });

  it('http() validates before anything is fetched', () => {
    const fetch = vi.fn();
    expect(() => http('http://127.0.0.1/', undefined, { fetch, timeoutMs: -1 })).toThrow(TypeError);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('readHttpRequest', () => {
  it('normalises the URL and the method, and keeps the init as given', () => {
    const init = { method: 'post', body: 'x' };
    const request = readHttpRequest(new URL('http://127.0.0.1:8080/a b'), init);
    expect(request).toEqual({ url: 'http://127.0.0.1:8080/a%20b', method: 'POST', init });
    expect(request.init).toBe(init);
    expect(readHttpRequest('http://127.0.0.1/', undefined)).toEqual({
      url: 'http://127.0.0.1/',
      method: 'GET',
      init: {},
    });
  });

  it.each([
    [
      '/relative',
      undefined,
      'Expected the `url` argument to be an absolute URL (string or URL), got `/relative` (string)',
    ],
    [42, undefined, 'Expected the `url` argument to be an absolute URL (string or URL), got `42` (number)'],
    [
      'http://127.0.0.1/',
      'GET',
      'Expected the `init` argument to be a RequestInit object, got `GET` (string)',
    ],
    [
      'http://127.0.0.1/',
      { method: 7 },
      'Expected the `init.method` argument to be a non-empty string, got `7` (number)',
    ],
    [
      'http://127.0.0.1/',
      { signal: 'stop' },
      'Expected the `init.signal` argument to be an AbortSignal, got `stop` (string)',
    ],
  ])('rejects url %j / init %j with a TypeError naming it', (url, init, message) => {
    expect(() => readHttpRequest(url, init)).toThrow(new TypeError(message));
  });
});
