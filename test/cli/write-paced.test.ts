import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writePaced } from '../../src/cli/write-paced.js';

/** A stream that holds every write until the test lets it go, with room for one byte. */
function heldStream() {
  const held: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark: 1,
    write: (_chunk, _encoding, callback) => void held.push(callback),
  });
  const release = () => {
    for (const callback of held.splice(0)) callback();
  };
  return { stream, release };
}

describe('writePaced', () => {
  it('writes a batch past a full buffer with one wait, not a listener per write, and settles on drain', async () => {
    const { stream, release } = heldStream();
    const waits = Array.from({ length: 50 }, (_, n) => writePaced(stream, `line ${n}\n`));
    expect(waits.every((wait) => wait instanceof Promise)).toBe(true);
    expect(new Set(waits).size).toBe(1);
    expect(stream.listenerCount('drain')).toBe(1);
    let settled = false;
    void waits[0]?.then(() => (settled = true));
    while (stream.writableLength > 0) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(settled).toBe(true);
    expect(stream.listenerCount('drain')).toBe(0);
    expect(stream.listenerCount('close')).toBe(0);
  });

  it('settles when the reader goes away, and writes nothing to a destroyed stream', async () => {
    const { stream } = heldStream();
    const wait = writePaced(stream, 'more than one byte');
    stream.destroy();
    await wait;
    expect(writePaced(stream, 'after')).toBeUndefined();
  });
});
