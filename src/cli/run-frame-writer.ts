import type { ChunkEvent } from '../core/chunk.js';
import { execEventToChunk, execExitInfo } from '../kernel/host/exec-hostcall.js';
import { bridgeCodec } from '../kernel/protocol/bridge-codec.js';
import type { OutcomeCodec } from '../kernel/protocol/define-codec.js';
import { encodeFrame } from '../kernel/protocol/hostcall-frame.js';
import { failure, type HostcallOutcome, streamChunk } from '../kernel/protocol/hostcall-outcome.js';
import type { JsonValue } from '../kernel/protocol/json-value.js';
import { serdeCodec } from '../kernel/protocol/serde-codec.js';
import type { RunFailure } from '../runs/run-record.js';
import { ExecError } from '../sources/exec/exec-error.js';
import type { ExecResult } from '../sources/exec/exec-result.js';
import type { ExecEvent } from '../sources/exec.js';
import { failureExitCode, mirrorExitCode } from './exit-code.js';
import type { CliStreams } from './text-view.js';
import { writePaced } from './write-paced.js';

/**
 * Writes a run's events as the hostcall wire frames of `sluice exec --json`, for the runs that come
 * from a store (`sluice follow --json`, `sluice exec --redis --json`): each frame is exactly what
 * `exec --json` writes for the same event, and the frames of what only a store sees (a cancel from
 * anywhere, a gap, a stored failure) are docs/protocol.md's, "Runs from a store". `code` is then the
 * exit status, as `sluice exec` mirrors it.
 */
export class RunFrameWriter {
  /** The exit status the frames written so far end with. */
  code = 0;
  readonly #io: CliStreams;
  readonly #codec: OutcomeCodec;
  readonly #callId: string;

  constructor(io: CliStreams, wire: 'bridge' | 'serde', callId: string) {
    this.#io = io;
    this.#codec = wire === 'serde' ? serdeCodec : bridgeCodec;
    this.#callId = callId;
  }

  /** Writes the frames of one event; a promise while stdout is full (wait before the next). */
  event(event: ChunkEvent<unknown>): Promise<void> | undefined {
    if (event.kind === 'exit' && event.isFinal)
      return this.#exit(event.sequence, event.content as ExecResult);
    if (event.kind === 'end' && event.isFinal) {
      const metadata = (event.metadata ?? {}) as Record<string, JsonValue>;
      if (metadata.reason === 'stalled') {
        this.code = 124;
        return this.send(streamChunk(event.sequence, null, true));
      }
      this.code = 130;
      const reason = String(metadata.reason ?? 'cancelled');
      return this.#sendAll([
        streamChunk(event.sequence, { end: metadata }, false),
        failure('CANCELLED', `The run was cancelled (${reason})`),
      ]);
    }
    const chunk = execEventToChunk(event as ExecEvent);
    return this.send(streamChunk(chunk.sequence, chunk.content ?? null, event.isFinal));
  }

  /** Writes the gap chunk of trimmed sequences `from..to`. */
  gap(from: number, to: number): Promise<void> | undefined {
    return this.send(streamChunk(from, { gap: { from, to } }, false));
  }

  /** Writes the terminal `Error` of a failed run. */
  failure(end: RunFailure): Promise<void> | undefined {
    this.code = failureExitCode(end);
    return this.send(failure(end.code, end.message));
  }

  #exit(sequence: number, result: ExecResult): Promise<void> | undefined {
    this.code = mirrorExitCode(result);
    const info = execExitInfo(result);
    if (result.exitCode === 0 && result.signal === null && !result.timedOut) {
      return this.send(streamChunk(sequence, info, true));
    }
    const error = new ExecError(result);
    return this.#sendAll([streamChunk(sequence, { exit: info }, false), failure(error.code, error.message)]);
  }

  #sendAll(outcomes: HostcallOutcome[]): Promise<void> | undefined {
    const text = outcomes
      .map((outcome) => encodeFrame({ callId: this.#callId, outcome }, this.#codec))
      .join('');
    return writePaced(this.#io.stdout, text);
  }

  /** Writes one outcome as a frame. */
  send(outcome: HostcallOutcome): Promise<void> | undefined {
    return writePaced(this.#io.stdout, encodeFrame({ callId: this.#callId, outcome }, this.#codec));
  }
}
