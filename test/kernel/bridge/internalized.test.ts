import { describe, expect, it } from 'vitest';
import { connectExtension } from '../../../src/kernel/bridge/connect-extension.js';
import { internalized } from '../../../src/kernel/bridge/internalized.js';
import { createHost } from '../../../src/kernel/host/create-host.js';

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
