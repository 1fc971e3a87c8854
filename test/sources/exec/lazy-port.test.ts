import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { lazyPort } from '../../../src/sources/exec/lazy-port.js';
import type { ProcessEvents, ProcessHandle, ProcessPort } from '../../../src/sources/exec/process-port.js';
import { spawnWithExeca } from '../../../src/sources/exec/spawn-with-execa.js';
import { exec } from '../../../src/sources/exec.js';
import { findChild, groupGone } from '../../support/processes.js';
import { needs } from '../../support/system-tools.js';

const request = {
  file: 'x',
  args: [],
  cwd: undefined,
  env: undefined,
  extendEnv: true,
  rlimits: undefined,
  hasInput: false,
  cleanup: true,
} as const;

const silentEvents: ProcessEvents = { data() {}, end() {}, exit() {}, spawnError() {} };

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** An inner port that records its spawns and returns a handle with pid 9. */
function innerPort(spawned: string[]): ProcessPort {
  return {
    spawn: (spawnRequest) => {
      spawned.push(spawnRequest.file);
      return { pid: 9, killGroup: () => {}, groupAlive: () => false } as unknown as ProcessHandle;
    },
  };
}

/** Resolves once every callback chained on an already-settled load has run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('lazyPort', () => {
  it('loads once, on the first spawn, spawns when loaded, then synchronously', async () => {
    const spawned: string[] = [];
    const { open, opened } = gate();
    const load = vi.fn(async () => {
      await opened;
      return innerPort(spawned);
    });
    const port = lazyPort(load);
    expect(load).not.toHaveBeenCalled();
    const first = port.spawn(request, silentEvents);
    const second = port.spawn({ ...request, file: 'y' }, silentEvents);
    expect(first.pid).toBeUndefined();
    expect(spawned).toEqual([]);
    open();
    await settle();
    expect(spawned).toEqual(['x', 'y']);
    expect([first.pid, second.pid]).toEqual([9, 9]);
    port.spawn({ ...request, file: 'z' }, silentEvents);
    expect(spawned).toEqual(['x', 'y', 'z']); // synchronous once loaded
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('never spawns a child whose handle was destroyed while loading', async () => {
    const spawned: string[] = [];
    const { open, opened } = gate();
    const port = lazyPort(async () => {
      await opened;
      return innerPort(spawned);
    });
    port.spawn(request, silentEvents).destroy();
    const kept = port.spawn({ ...request, file: 'kept' }, silentEvents);
    open();
    await settle();
    expect(spawned).toEqual(['kept']);
    expect(kept.pid).toBe(9);
  });

  it('reports a failed load as a spawn error, once per waiting spawn', async () => {
    const failure = new Error('cannot load');
    const port = lazyPort(() => Promise.reject(failure));
    const errors: unknown[] = [];
    const events = { ...silentEvents, spawnError: (error: unknown) => errors.push(error) };
    const handle = port.spawn(request, events);
    port.spawn(request, events).destroy(); // cancelled: nothing to report
    await settle();
    expect(errors).toEqual([failure]);
    expect(handle.groupAlive()).toBe(false);
  });
});

describe('lazyPort around execa (real processes)', () => {
  const gatedExeca = (opened: Promise<void>) =>
    lazyPort(async () => {
      await opened;
      const { execa } = await import('execa');
      return { spawn: (spawnRequest, events) => spawnWithExeca(execa, spawnRequest, events) };
    });

  it('the first run writes stdin and loses no output although it spawned late', async () => {
    const { open, opened } = gate();
    const events = lastValueFrom(
      exec('cat', [], { port: gatedExeca(opened), input: 'one\ntwo\n' }).pipe(toArray()),
    );
    open();
    const all = await events;
    expect(all.map((event) => (event.kind === 'exit' ? event.content.exitCode : event.content))).toEqual([
      'one\n',
      'two\n',
      0,
    ]);
    const exit = all.at(-1);
    expect(exit?.kind === 'exit' && typeof exit.content.pid).toBe('number');
  });

  it.skipIf(!needs('linux', 'ps'))('a run cancelled while execa loads is never spawned', async () => {
    const { open, opened } = gate();
    const port = gatedExeca(opened);
    exec('sleep', ['31.4159'], { port }).subscribe().unsubscribe();
    open();
    // A later run on the same port completes: by then the load has settled and the cancelled
    // run's spawn callback has run (it was chained first).
    await lastValueFrom(exec('true', [], { port }));
    await settle();
    expect(findChild('31.4159')).toBeUndefined();
  });

  it.skipIf(!needs('linux', 'ps'))(
    'a timeout that fires while execa loads kills the group as soon as it exists',
    async () => {
      const { open, opened } = gate();
      const source = exec('sh', ['-c', 'sleep 32.718 & sleep 32.718'], {
        port: gatedExeca(opened),
        timeoutMs: 50,
        reject: false,
      });
      const last = lastValueFrom(source);
      setTimeout(open, 250); // Node runs a 250 ms timer after a 50 ms one: the load ends after the timeout
      const exit = await last;
      expect(exit.kind).toBe('exit');
      if (exit.kind !== 'exit') return;
      expect(exit.content.timedOut).toBe(true);
      expect(exit.content.signal).toBe('SIGTERM');
      expect(await groupGone(exit.content.pid as number, 10_000)).toBe(true);
      expect(findChild('32.718')).toBeUndefined();
    },
  );
});
