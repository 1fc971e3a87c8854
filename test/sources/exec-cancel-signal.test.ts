import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  type CancelledError,
  type ExecEvent,
  type ExecResult,
  exec,
  isCancelledError,
} from '../../src/index.js';
import { fixture, groupAlive } from '../support/processes.js';
import { containments, needs } from '../support/system-tools.js';

/** Subscribes; `onLine` sees each line; resolves with the lines and how the stream ended. */
function run(source: ReturnType<typeof exec>, onLine: (line: string) => void = () => {}) {
  const lines: string[] = [];
  return new Promise<{ lines: string[]; error?: unknown; exit?: ExecEvent }>((resolve) => {
    let exit: ExecEvent | undefined;
    source.subscribe({
      next: (event) => {
        if (event.kind === 'exit') exit = event;
        else {
          lines.push(event.content);
          onLine(event.content);
        }
      },
      error: (error: unknown) => resolve({ lines, error }),
      complete: () => resolve({ lines, ...(exit === undefined ? {} : { exit }) }),
    });
  });
}

describe.skipIf(!needs('linux')).each(containments())('exec cancelSignal (containment %s)', (containment) => {
  it('abort() kills the group, then errors CANCELLED once it is gone, with the partial result', async () => {
    const controller = new AbortController();
    const source = exec('sh', ['-c', 'echo $$; echo second; sleep 300 & wait'], {
      containment,
      cancelSignal: controller.signal,
    });
    let pgid = 0;
    const ended = await run(source, (line) => {
      if (pgid === 0) pgid = Number(line);
      if (line === 'second\n') controller.abort();
    });
    expect(isCancelledError(ended.error)).toBe(true);
    const error = ended.error as CancelledError<ExecResult>;
    expect(error.code).toBe('CANCELLED');
    expect(error.message).toBe("Command was cancelled: sh -c 'echo $$; echo second; sleep 300 & wait'");
    expect(error.result).toMatchObject({ exitCode: null, signal: 'SIGTERM', stdout: `${pgid}\nsecond\n` });
    expect(error.info?.reason).toMatchObject({ name: 'AbortError' });
    expect(ended.lines).toEqual([`${pgid}\n`, 'second\n']);
    expect(groupAlive(pgid)).toBe(false); // the error came after the kill sequence
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('errors CANCELLED with `reject: false` too, and names a reason the caller gave', async () => {
    const controller = new AbortController();
    const source = exec('sh', ['-c', 'echo up; exec sleep 300'], {
      containment,
      cancelSignal: controller.signal,
      reject: false,
    });
    const ended = await run(source, () => controller.abort(new Error('user pressed stop')));
    expect(ended.error).toMatchObject({
      code: 'CANCELLED',
      message: "Command was cancelled (user pressed stop): sh -c 'echo up; exec sleep 300'",
    });
  });

  it('goes through the whole kill sequence: a group that ignores SIGTERM is SIGKILLed first', async () => {
    const controller = new AbortController();
    const source = exec('sh', [fixture('exec-ignore-term.sh')], {
      containment,
      cancelSignal: controller.signal,
      forceKillAfterMs: 300,
    });
    const started = performance.now();
    const ended = await run(source, () => controller.abort());
    expect((ended.error as CancelledError<ExecResult>).result).toMatchObject({ signal: 'SIGKILL' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('already aborted: nothing spawns, the stream errors CANCELLED at once', async () => {
    const controller = new AbortController();
    controller.abort();
    const ended = await run(
      exec('sluice-would-not-be-found', [], { containment, cancelSignal: controller.signal }),
    );
    expect(ended.error).toMatchObject({ code: 'CANCELLED', info: { result: undefined } });
  });

  it('an abort after the run ended changes nothing, and leaves no listener behind', async () => {
    const controller = new AbortController();
    const ended = await run(exec('echo', ['done'], { containment, cancelSignal: controller.signal }));
    expect(ended.exit?.content).toMatchObject({ exitCode: 0, stdout: 'done\n', containment });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    controller.abort();
  });
});
