import { describe, expect, it } from 'vitest';
import { DeferredHandle } from '../../../src/sources/exec/deferred-handle.js';
import type { ProcessHandle } from '../../../src/sources/exec/process-port.js';

/** A handle that records every call, as `name` or `name:argument`. */
function recordingHandle(calls: string[], pid = 77): ProcessHandle {
  return {
    pid,
    pause: () => calls.push('pause'),
    resume: () => calls.push('resume'),
    killGroup: (signal) => calls.push(`kill:${signal}`),
    groupAlive: () => {
      calls.push('groupAlive');
      return true;
    },
    writeInput: (bytes, callback) => {
      calls.push(`write:${Buffer.from(bytes).toString()}`);
      callback();
    },
    endInput: () => calls.push('endInput'),
    destroy: () => calls.push('destroy'),
  };
}

describe('DeferredHandle', () => {
  it('replays kills, then the pause, then stdin writes and their end once attached; pid comes then', () => {
    const handle = new DeferredHandle();
    const written: unknown[] = [];
    handle.writeInput(Buffer.from('a'), (error) => written.push(error ?? 'ok'));
    handle.pause();
    handle.resume();
    handle.pause();
    handle.killGroup('SIGTERM');
    expect(handle.groupAlive()).toBe(true); // the escalation must still fire: the group is coming
    handle.killGroup('SIGKILL');
    handle.writeInput(Buffer.from('b'), (error) => written.push(error ?? 'ok'));
    handle.endInput();
    expect(handle.pid).toBeUndefined();
    expect(written).toEqual([]);
    expect(handle.wanted).toBe(true);

    const calls: string[] = [];
    handle.attach(recordingHandle(calls));
    expect(calls).toEqual(['kill:SIGTERM', 'kill:SIGKILL', 'pause', 'write:a', 'write:b', 'endInput']);
    expect(written).toEqual(['ok', 'ok']);
    expect(handle.pid).toBe(77);
    expect(handle.wanted).toBe(false);

    handle.resume();
    handle.groupAlive();
    handle.destroy();
    expect(calls.slice(6)).toEqual(['resume', 'groupAlive', 'destroy']);
  });

  it('is unwanted once destroyed: pending writes fail, kills are dropped, the group is not alive', () => {
    const handle = new DeferredHandle();
    const written: unknown[] = [];
    handle.writeInput(Buffer.from('a'), (error) => written.push(error?.message));
    handle.killGroup('SIGTERM');
    handle.destroy();
    expect(handle.wanted).toBe(false);
    expect(handle.groupAlive()).toBe(false);
    expect(written).toEqual(['the process did not start']);
    handle.writeInput(Buffer.from('b'), (error) => written.push(error?.message));
    expect(written).toEqual(['the process did not start', 'the process did not start']);
  });

  it('fail() ends pending writes with an error and ignores a later attach', () => {
    const handle = new DeferredHandle();
    const written: unknown[] = [];
    handle.writeInput(Buffer.from('a'), (error) => written.push(error?.message));
    handle.fail();
    expect(written).toEqual(['the process did not start']);
    const calls: string[] = [];
    handle.attach(recordingHandle(calls));
    expect(calls).toEqual([]);
    expect(handle.pid).toBeUndefined();
    expect(handle.groupAlive()).toBe(false);
  });
});
