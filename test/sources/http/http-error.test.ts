import { describe, expect, it } from 'vitest';
import { isSluiceError, SluiceError } from '../../../src/core/errors/sluice-error.js';
import { HttpError, type HttpErrorInfo, isHttpError } from '../../../src/sources/http/http-error.js';

const info: HttpErrorInfo = {
  url: 'http://127.0.0.1/x',
  method: 'GET',
  status: 200,
  statusText: 'OK',
  headers: {},
  bytes: 12,
  durationMs: 5,
};

describe('HttpError', () => {
  it('describes each code in its message and keeps code, info and cause', () => {
    const status = new HttpError('HTTP_STATUS', { ...info, status: 404, statusText: 'Not Found', bytes: 0 });
    expect(status.message).toBe('GET http://127.0.0.1/x responded 404 Not Found');
    const timeout = new HttpError('TIMEOUT', { ...info, timeoutMs: 100 });
    expect(timeout.message).toBe('GET http://127.0.0.1/x timed out after 100ms (12 body bytes read)');
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    const failed = new HttpError('HTTP_FAILED', { ...info, status: undefined, bytes: 0 }, { cause });
    expect(failed.message).toBe(
      'GET http://127.0.0.1/x failed: fetch failed (connect ECONNREFUSED 127.0.0.1:1)',
    );
    expect(failed).toMatchObject({ name: 'HttpError', code: 'HTTP_FAILED', cause });
    const dropped = new HttpError('HTTP_FAILED', info, { cause: new TypeError('terminated') });
    expect(dropped.message).toBe('GET http://127.0.0.1/x failed mid-body after 12 bytes: terminated');
    expect(failed.info.status).toBeUndefined();
    expect(failed).toBeInstanceOf(SluiceError);
  });

  it('isHttpError recognises it by brand (and code), not other sluice errors', () => {
    const error = new HttpError('TIMEOUT', { ...info, timeoutMs: 1 });
    expect(isHttpError(error)).toBe(true);
    expect(isHttpError(error, 'TIMEOUT')).toBe(true);
    expect(isHttpError(error, 'HTTP_STATUS')).toBe(false);
    expect(isSluiceError(error, 'TIMEOUT')).toBe(true);
    expect(isHttpError(new SluiceError('TIMEOUT', 'exec timed out'))).toBe(false);
    expect(isHttpError({ code: 'TIMEOUT', name: 'HttpError' })).toBe(false);
    expect(isHttpError(undefined)).toBe(false);
  });
});
