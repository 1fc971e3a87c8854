import { describe, expect, it } from 'vitest';
import { SluiceError } from '../../src/core/errors/sluice-error.js';
import { describeEnd, describeFailure } from '../../src/web/page/describe-end.js';

const exit = (content: Record<string, unknown>) => ({ kind: 'exit', content });
const end = (metadata: Record<string, unknown>) => ({ kind: 'end', content: null, metadata });

describe('how the page words the end of a run', () => {
  it("exit code, signal and timeout from exec's exit event, with the run's duration", () => {
    expect(
      describeEnd(exit({ exitCode: 0, signal: null, timedOut: false, durationMs: 3200 }), false),
    ).toEqual({
      state: 'exited',
      label: 'exit 0',
      text: 'Exited with code 0 after 3.2s',
      ok: true,
      durationMs: 3200,
    });
    expect(describeEnd(exit({ exitCode: 2, signal: null, timedOut: false }), false)).toMatchObject({
      label: 'exit 2',
      ok: false,
    });
    expect(
      describeEnd(exit({ exitCode: null, signal: 'SIGKILL', timedOut: false, durationMs: 10 }), false).text,
    ).toBe('Killed by SIGKILL after 10ms');
    expect(describeEnd(exit({ exitCode: null, signal: 'SIGTERM', timedOut: true }), false)).toMatchObject({
      state: 'timed-out',
      text: 'Timed out',
    });
  });

  it('what a run in a cgroup used follows its duration', () => {
    const usage = { cpuUserMs: 800, cpuSystemMs: 40, memoryPeakBytes: 12 * 1024 * 1024, pidsPeak: 3 };
    expect(describeEnd(exit({ exitCode: 0, signal: null, durationMs: 3200, usage }), false).text).toBe(
      'Exited with code 0 after 3.2s · cpu 0.84s (0.80s user, 0.04s system) · peak memory 12.0 MiB · at most 3 processes',
    );
    expect(describeEnd(exit({ exitCode: 0, signal: null, durationMs: 3200, usage: null }), false).text).toBe(
      'Exited with code 0 after 3.2s',
    );
  });

  it('who cancelled, a stall, a server that shut down', () => {
    expect(describeEnd(end({ reason: 'cancelled', by: 'page' }), true).text).toBe('Cancelled from this page');
    expect(describeEnd(end({ reason: 'cancelled', by: 'page' }), false).text).toBe(
      'Cancelled from another page',
    );
    expect(describeEnd(end({ reason: 'cancelled', by: 'terminal' }), false).text).toBe(
      'Cancelled from the terminal',
    );
    expect(describeEnd(end({ reason: 'cancelled', by: 'server' }), false)).toMatchObject({
      label: 'stopped',
      text: 'Stopped: the server shut down',
    });
    expect(describeEnd(end({ reason: 'cancelled' }), false).text).toBe('Cancelled');
    expect(describeEnd(end({ reason: 'stalled' }), false).state).toBe('stalled');
    expect(describeEnd(end({ reason: 'owner lost' }), false)).toMatchObject({
      state: 'failed',
      label: 'owner lost',
    });
  });

  it('why following failed: the server gone, the run freed, access refused, the owner lost, the run failing', () => {
    expect(describeFailure(new SluiceError('HTTP_FAILED', 'dropped')).text).toBe(
      'Connection lost: the server is gone',
    );
    expect(describeFailure(new SluiceError('HTTP_STATUS', '404', { info: { status: 404 } })).text).toBe(
      'This run is no longer held by the server',
    );
    expect(describeFailure(new SluiceError('HTTP_STATUS', '401', { info: { status: 401 } })).label).toBe(
      'refused',
    );
    expect(
      describeFailure(new SluiceError('OWNER_LOST', 'Run r lost its owner (its lease expired)')),
    ).toEqual({
      state: 'failed',
      label: 'owner lost',
      text: 'Lost: what ran the command stopped renewing its lease (it died or was cut off)',
      ok: false,
    });
    expect(describeFailure(new SluiceError('SPAWN_FAILED', 'Command not found: nope')).text).toBe(
      'Failed: Command not found: nope',
    );
  });
});
