import { EMPTY, NEVER, type Observable, type SchedulerLike, Subscription } from 'rxjs';
import type { ExitInfo, OutputStream, ProcessPort, SpawnRequest } from '../../../src/sources/exec.js';

/** How a fake child behaves: what it writes (as text), when it exits, whether it ignores signals. */
export interface FakeScript {
  stdout?: Observable<string>;
  stderr?: Observable<string>;
  exit?: Observable<ExitInfo>;
  /** Signals the child survives (as `trap '' TERM` would). */
  ignores?: readonly string[];
}

/** What the fake port saw. */
export interface FakeLog {
  spawned: SpawnRequest[];
  kills: { at: number; signal: string }[];
  input: string[];
  inputEnded: boolean;
  pauses: number;
}

/**
 * A promise-free {@link ProcessPort} driven by (cold, under `TestScheduler.run`) observables: the
 * same `exec` code path as the real port, in virtual time. A kill the child does not ignore ends
 * both pipes and the child (`signal`) at once, and the group is dead from then on.
 */
export function fakePort(script: FakeScript, scheduler: SchedulerLike): { port: ProcessPort; log: FakeLog } {
  const log: FakeLog = { spawned: [], kills: [], input: [], inputEnded: false, pauses: 0 };
  const decoder = new TextDecoder();
  const port: ProcessPort = {
    spawn(request, events) {
      log.spawned.push(request);
      const running = new Subscription();
      const open = new Set<OutputStream>(['stdout', 'stderr']);
      let alive = true;
      const end = (stream: OutputStream) => {
        if (open.delete(stream)) events.end(stream);
      };
      const pipe = (stream: OutputStream, source: Observable<string>) =>
        running.add(
          source.subscribe({
            next: (text) => events.data(stream, new TextEncoder().encode(text)),
            complete: () => end(stream),
          }),
        );
      pipe('stdout', script.stdout ?? EMPTY);
      pipe('stderr', script.stderr ?? EMPTY);
      running.add(
        (script.exit ?? NEVER).subscribe((info) => {
          alive = false;
          events.exit(info);
        }),
      );
      return {
        pid: 4242,
        pause: () => {
          log.pauses += 1;
        },
        resume: () => {},
        killGroup: (signal) => {
          log.kills.push({ at: scheduler.now(), signal });
          if (!alive || script.ignores?.includes(signal)) return;
          alive = false;
          running.unsubscribe();
          end('stdout');
          end('stderr');
          events.exit({ exitCode: null, signal });
        },
        groupAlive: () => alive,
        writeInput: (bytes, callback) => {
          log.input.push(decoder.decode(bytes));
          callback();
        },
        endInput: () => {
          log.inputEnded = true;
        },
        destroy: () => running.unsubscribe(),
      };
    },
  };
  return { port, log };
}
