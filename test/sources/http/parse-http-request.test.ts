import { describe, expect, it } from 'vitest';
import { parseHttpRequest } from '../../../src/sources/http/parse-http-request.js';

describe('parseHttpRequest', () => {
  it('normalises the URL and the method, and keeps the init as given', () => {
    const init = { method: 'post', body: 'x' };
    const request = parseHttpRequest(new URL('http://127.0.0.1:8080/a b'), init);
    expect(request).toEqual({ url: 'http://127.0.0.1:8080/a%20b', method: 'POST', init });
    expect(request.init).toBe(init);
    expect(parseHttpRequest('http://127.0.0.1/', undefined)).toEqual({
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
    expect(() => parseHttpRequest(url, init)).toThrow(new TypeError(message));
  });
});
