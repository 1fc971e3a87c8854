import { describe, expect, it } from 'vitest';
import { deferred } from '../../src/core/deferred.js';

describe('deferred', () => {
  it('settles its promise from outside, once', async () => {
    const done = deferred<number>();
    done.resolve(1);
    done.resolve(2);
    done.reject(new Error('late'));
    await expect(done.promise).resolves.toBe(1);
  });

  it('rejects its promise with the reason given', async () => {
    const done = deferred<void>();
    done.reject(new Error('boom'));
    await expect(done.promise).rejects.toThrow('boom');
  });
});
