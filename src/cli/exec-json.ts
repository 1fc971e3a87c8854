import type { Writable } from 'node:stream';
import { onChunk } from '../adapters/on-chunk.js';
import type { ChunkEvent } from '../core/chunk.js';
import { isCancelledError } from '../core/errors/cancelled-error.js';
import { isSluiceError } from '../core/errors/sluice-error.js';
import { isSpawnError } from '../core/errors/spawn-error.js';
import { mapDirect } from '../core/map-direct.js';
import { execEventToChunk, execExitInfo } from '../kernel/host/exec-hostcall.js';
import { bridgeCodec } from '../kernel/protocol/bridge-codec.js';
import type { OutcomeCodec } from '../kernel/protocol/define-codec.js';
import { encodeFrame } from '../kernel/protocol/hostcall-frame.js';
import { failure, type HostcallOutcome, streamChunk } from '../kernel/protocol/hostcall-outcome.js';
import type { JsonValue } from '../kernel/protocol/json-value.js';
import { serdeCodec } from '../kernel/protocol/serde-codec.js';
import { isExecError } from '../sources/exec/exec-error.js';
import { type ExecResult, exec } from '../sources/exec.js';
import { cliExecOptions, cliStallTimeout } from './cli-exec-options.js';
import { type CliInterruption, interruptionOf, stopOnClosedOutput } from './cli-interruption.js';
import { errorExitCode, mirrorExitCode } from './exit-code.js';
import type { CliExecCommand } from './parse-args.js';
import type { CliStreams } from './text-view.js';
import { writePaced } from './write-paced.js';

/**
 * `sluice exec --json`: one NDJSON `{callId, outcome}` frame per chunk on stdout, exactly as a
 * sluice host would deliver a streaming `exec` hostcall, and exactly one terminal frame: the shape
 * and the guarantees are docs/protocol.md's, "`sluice exec --json`". A closed stdout stops
 * everything at once; writes wait for `'drain'`, so a slow reader pauses the command.
 */
export async function execAsJson(run: CliExecCommand, io: CliStreams, signal?: AbortSignal): Promise<number> {
  const codec = run.wire === 'serde' ? serdeCodec : bridgeCodec;
  const out = new NdjsonWriter(io.stdout);
  const send = (outcome: HostcallOutcome): Promise<void> | undefined =>
    out.write(encodeFrame({ callId: run.callId, outcome }, codec));
  const textFrame = textFrameEncoder(run.callId, codec);
  // `mapDirect`: without a stall timeout, `exec` pushes its lines straight into `onChunk`'s queue
  // (no queue of its own and no subscriber chain per line: docs/performance.md, "`--json` without a
  // queue of its own").
  const events = exec(run.file, run.args, {
    reject: true,
    ...cliExecOptions(run, signal, io, { statusLine: false }),
  }).pipe(mapDirect(execEventToChunk), cliStallTimeout<ChunkEvent<JsonValue>>(run, io));
  let code = 0;
  let next = 0;
  try {
    await onChunk(
      events,
      (event) => {
        next = event.sequence + 1;
        if (event.metadata?.reason === 'stalled') code = 124;
        else if (event.isFinal) code = mirrorExitCode(exitOf(event.content));
        if (typeof event.content === 'string' && !event.isFinal) {
          return out.write(textFrame(event.sequence, event.content));
        }
        return send(streamChunk(event.sequence, event.content ?? null, event.isFinal));
      },
      { bufferSize: run.bufferSize, ...stopOnClosedOutput(signal) },
    );
  } catch (error) {
    code = await writeFailure(error, next, send, signal);
    if (interruptionOf(signal)?.outputClosed) return code;
  }
  await out.flush();
  return code;
}

/**
 * The terminal frames of a `--json` run that ended with `error` — {@link endAsData}'s chunk at
 * sequence `next`, then the `Error` outcome — and its exit code. Nothing is written once stdout
 * was closed.
 */
export async function writeFailure(
  error: unknown,
  next: number,
  send: (outcome: HostcallOutcome) => Promise<void> | undefined,
  signal: AbortSignal | undefined,
): Promise<number> {
  const interruption = interruptionOf(signal);
  if (interruption?.outputClosed) return interruption.exitCode;
  const end = endAsData(error, interruption);
  if (end !== undefined) await send(streamChunk(next, end, false));
  await send(failure(isSluiceError(error) ? error.code : 'EXEC_FAILED', (error as Error).message));
  return errorExitCode(error, interruption);
}

/** The last chunk before the `Error`: how the command ended, as fields a program can read. */
export function endAsData(error: unknown, interruption: CliInterruption | undefined): JsonValue | undefined {
  if (isCancelledError(error)) {
    const result = error.info?.result as ExecResult | undefined;
    if (result === undefined) return undefined;
    const exit: Record<string, JsonValue> = execExitInfo(result);
    if (interruption !== undefined) exit.cancelled_by = interruption.signal;
    return { exit };
  }
  if (isExecError(error)) return { exit: execExitInfo(error.result) };
  if (isSpawnError(error) && error.info !== undefined) {
    const { errno, syscall, path } = error.info;
    const where = { ...(syscall === undefined ? {} : { syscall }), ...(path === undefined ? {} : { path }) };
    return { spawn_error: { errno, ...where } };
  }
  return undefined;
}

function exitOf(content: JsonValue | null): Parameters<typeof mirrorExitCode>[0] {
  const info = (content ?? {}) as { exit_code?: number | null; signal?: string | null; timed_out?: boolean };
  return { exitCode: info.exit_code ?? null, signal: info.signal ?? null, timedOut: info.timed_out === true };
}

/** What one `write()` to the stream holds at most: about one pipe read's worth of frames. */
const MAX_BATCH = 64 * 1024;

/**
 * Writes NDJSON lines in batches: the lines of one turn of the event loop (one read of the
 * command, typically) go out as one `write()`, or at once past {@link MAX_BATCH}
 * (docs/performance.md, "`--json` without a queue of its own"). While the stream is full,
 * `write` returns the promise of `writePaced`, which the caller awaits. `flush` before the end.
 */
export class NdjsonWriter {
  readonly #stream: Writable;
  #batch = '';
  #scheduled = false;
  #full: Promise<void> | undefined;

  constructor(stream: Writable) {
    this.#stream = stream;
  }

  /** Queues `line` (its `'\n'` included); a promise while the stream is full. */
  write(line: string): Promise<void> | undefined {
    this.#batch += line;
    if (this.#batch.length >= MAX_BATCH) this.#send();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#send();
      });
    }
    return this.#full;
  }

  /** Writes what is queued now; settles once the stream has room again (at once when it has). */
  flush(): Promise<void> {
    this.#send();
    return this.#full ?? Promise.resolve();
  }

  #send(): void {
    if (this.#batch === '') return;
    const batch = this.#batch;
    this.#batch = '';
    const drained = writePaced(this.#stream, batch);
    if (drained === undefined || this.#full !== undefined) return;
    this.#full = drained.then(() => {
      this.#full = undefined;
    });
  }
}

/** Stand-ins that cannot occur in a real frame: found once in the encoded sample frame. */
const SEQUENCE = 987_654_321_012_345;
const TEXT = '\u0000sluice-text-frame\u0000';

/**
 * Text that `JSON.stringify` writes unchanged between its quotes, but for one trailing `\n` (no
 * control character, `"`, `\\` or surrogate): put in without `JSON.stringify`, its quotes and
 * escaped newline folded into the frame's constant parts.
 */
const PLAIN_LINE = /^[^\u0000-\u001f"\\\ud800-\udfff]*\n?$/;

/** `parts` as flat strings (`join` copies; a sliced or concatenated string is a tree V8 walks on every copy). */
function flat(...parts: string[]): string[] {
  return parts.map((part) => [part, ''].join(''));
}

/**
 * Encodes the non-final text chunks of one call byte for byte as {@link encodeFrame} does, without
 * a frame object per line: the codec encodes one sample frame, and each frame is that sample with
 * its sequence and JSON text put in (docs/performance.md, "`--json` without a queue of its own").
 */
export function textFrameEncoder(
  callId: string,
  codec: OutcomeCodec,
): (sequence: number, text: string) => string {
  const sample = encodeFrame({ callId, outcome: streamChunk(SEQUENCE, TEXT, false) }, codec);
  const sequenceAt = sample.indexOf(String(SEQUENCE));
  const text = JSON.stringify(TEXT);
  const textAt = sample.indexOf(text);
  const once = sample.lastIndexOf(String(SEQUENCE)) === sequenceAt && sample.lastIndexOf(text) === textAt;
  if (sequenceAt === -1 || textAt === -1 || !once) {
    return (sequence, chunk) => encodeFrame({ callId, outcome: streamChunk(sequence, chunk, false) }, codec);
  }
  const sequenceEnd = sequenceAt + String(SEQUENCE).length;
  const textEnd = textAt + text.length;
  if (sequenceAt < textAt) {
    const [a, b, c] = flat(
      sample.slice(0, sequenceAt),
      sample.slice(sequenceEnd, textAt),
      sample.slice(textEnd),
    );
    const [open, close, closeLine] = flat(`${b}"`, `"${c}`, `\\n"${c}`);
    return (sequence, chunk) => {
      if (!PLAIN_LINE.test(chunk)) return `${a}${sequence}${b}${JSON.stringify(chunk)}${c}`;
      return chunk.charCodeAt(chunk.length - 1) === 10
        ? `${a}${sequence}${open}${chunk.slice(0, -1)}${closeLine}`
        : `${a}${sequence}${open}${chunk}${close}`;
    };
  }
  const [a, b, c] = flat(
    sample.slice(0, textAt),
    sample.slice(textEnd, sequenceAt),
    sample.slice(sequenceEnd),
  );
  const [open, close, closeLine] = flat(`${a}"`, `"${b}`, `\\n"${b}`);
  return (sequence, chunk) => {
    if (!PLAIN_LINE.test(chunk)) return `${a}${JSON.stringify(chunk)}${b}${sequence}${c}`;
    return chunk.charCodeAt(chunk.length - 1) === 10
      ? `${open}${chunk.slice(0, -1)}${closeLine}${sequence}${c}`
      : `${open}${chunk}${close}${sequence}${c}`;
  };
}
