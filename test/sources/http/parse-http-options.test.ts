import { asyncScheduler, queueScheduler } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { Valve } from '../../../src/core/demand.js';
import { parseHttpOptions } from '../../../src/sources/http/parse-http-options.js';
import { http } from '../../../src/sources/http.js';

describe('parseHttpOptions', () => {
  it('applies the defaults', () => {
    expect(parseHttpOptions(undefined)).toEqual({
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
    const resolved = parseHttpOptions(options);
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
    expect(() => parseHttpOptions(options as never)).toThrow(new TypeError(message));
  });

  it('rejects options that are not an object', () => {
    expect(() => parseHttpOptions([] as never)).toThrow(
      new TypeError('Expected the `options` argument to be an object, got `[]` (array)'),
    );
  });

  it('http() validates before anything is fetched', () => {
    const fetch = vi.fn();
    expect(() => http('http://127.0.0.1/', undefined, { fetch, timeoutMs: -1 })).toThrow(TypeError);
    expect(fetch).not.toHaveBeenCalled();
  });
});
