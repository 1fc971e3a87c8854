import { map } from 'rxjs';
import { type ExecPayload, execEventToChunk, execPayloadOptions } from '../kernel/host/exec-hostcall.js';
import type { StreamProducer } from '../kernel/host/host.js';
import { exec } from '../sources/exec.js';
import type { FakeExec } from './fake-exec.js';

/**
 * The kernel's streaming `exec` producer, on a fake process: the real {@link exec} source with
 * `port: fake` and the host's clock, mapped to wire chunks as the default producer maps them
 * (stdout lines as strings, stderr as `{ stderr }`, a final `{ exit_code, … }` in the wire's
 * names, which an extension's bridge reads as `{ exitCode, … }`; a failure is an `Error` outcome).
 * Every streaming `exec` hostcall spawns the fake's script once.
 *
 * @example
 * ```ts
 * const fake = fakeExec({ stdout: '-a-b|' }, { scheduler: clock });
 * const host = createHost({ scheduler, producers: { exec: fakeExecProducer(fake) } });
 * ```
 */
export function fakeExecProducer(fake: FakeExec): StreamProducer {
  return (raw, context) => {
    const payload = raw as unknown as ExecPayload;
    const options = { ...execPayloadOptions(payload, context.scheduler, true), port: fake };
    return exec(payload.cmd, payload.args ?? [], options).pipe(map(execEventToChunk));
  };
}
