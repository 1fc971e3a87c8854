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
 * `sluice exec --json`: writes one NDJSON `{callId, outcome}` frame per chunk on stdout, in the
 * hostcall wire format (`--wire bridge|serde`), exactly as a sluice host would deliver a streaming
 * `exec` hostcall: stdout lines as bare strings, stderr lines as `{ "stderr": "…" }`, then exactly
 * one terminal frame:
 *
 * - the final chunk with the exit info, for a command that exited 0;
 * - a null final chunk after a stall;
 * - otherwise one `Error` outcome (`EXEC_FAILED`, `TIMEOUT`, `CANCELLED` when sluice was
 *   interrupted by a signal, `SPAWN_FAILED`, …), preceded by one last non-final chunk that carries
 *   the end as data: `{ "exit": { exit_code, signal, timed_out, truncated, rlimit_hit,
 *   duration_ms, cancelled_by? } }`, or `{ "spawn_error": { errno, syscall?, path? } }`.
 *
 * On a fatal signal the command's group is killed and its last lines, that chunk and the `Error`
 * are still written (see docs/protocol.md). A closed stdout stops everything at once. The frames
 * of one read go out in one write ({@link NdjsonWriter}); writes wait for `'drain'`, so a slow
 * reader pauses the command.
 *
 * @example
 * ```ts
 * const code = await execAsJson(parseExecArgs(['--json', '--', 'ls']), process);
 * ```
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
    return {
      spawn_error: {
        errno,
        ...(syscall === undefined ? {} : { syscall }),
        ...(path === undefined ? {} : { path }),
      },
    };
  }
  return undefined;
}

function exitOf(content: JsonValue | null): {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
} {
  const info = (content ?? {}) as { exit_code?: number | null; signal?: string | null; timed_out?: boolean };
  return { exitCode: info.exit_code ?? null, signal: info.signal ?? null, timedOut: info.timed_out === true };
}

/** What one `write()` to the stream holds at most: about one pipe read's worth of frames. */
const MAX_BATCH = 64 * 1024;

/**
 * Writes NDJSON lines to a stream in batches: the lines given during one turn of the event loop
 * (the frames of one read of the command, typically) go out as one `write()`, and a batch that
 * reaches 64 KiB goes out at once: a `write()` per line would cost more than the rest of
 * `sluice exec --json` (docs/performance.md, "`--json` without a queue of its own").
 *
 * Backpressure is the stream's: while its buffer is full, {@link NdjsonWriter.write} returns a
 * promise that settles on `'drain'` (or `'close'`/`'error'`, so a reader that went away never
 * leaves the caller waiting) — the caller awaits it, which pauses the producer. Call
 * {@link NdjsonWriter.flush} before the process ends: it writes what is left and waits for room.
 *
 * @example
 * ```ts
 * const out = new NdjsonWriter(process.stdout);
 * await onChunk(events, (event) => out.write(`${JSON.stringify(event)}\n`));
 * await out.flush();
 * ```
 */
export class NdjsonWriter {
  readonly #stream: Writable;
  #batch = '';
  #scheduled = false;
  #full: Promise<void> | undefined;

  constructor(stream: Writable) {
    this.#stream = stream;
  }

  /**
   * Queues `line` (its `'\n'` included). Returns a promise while the stream is full — await it
   * before writing more — and `undefined` otherwise.
   */
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

/** Stand-ins that cannot occur in a real frame's text: found once in the encoded sample frame. */
const SEQUENCE = 987_654_321_012_345;
const TEXT = '\u0000sluice-text-frame\u0000';

/**
 * Text that `JSON.stringify` writes unchanged between its quotes, but for one trailing `\n`: no
 * control character, `"`, `\\` or UTF-16 surrogate (a lone one is escaped; a pair is checked
 * by `JSON.stringify` too, not worth telling apart here). Such a line's JSON is put in with one
 * regular-expression test instead of a `JSON.stringify`, and with the quotes and the escaped
 * newline folded into the frame's constant parts: each part is one more piece to copy when a
 * batch of frames is written (docs/performance.md, "`--json` without a queue of its own").
 */
const PLAIN_LINE = /^[^\u0000-\u001f"\\\ud800-\udfff]*\n?$/;

/**
 * `parts` as flat strings: a string built by `+` or sliced from another is a tree V8 walks on
 * every copy, and each frame's constant parts are copied into every batch (docs/performance.md,
 * "`--json` without a queue of its own"). `join` builds a flat copy.
 */
function flat(...parts: string[]): string[] {
  return parts.map((part) => [part, ''].join(''));
}

/**
 * Encodes the non-final text stream chunks of one call — every stdout line of `sluice exec
 * --json` — byte for byte as {@link encodeFrame} does, without building and serialising a frame
 * object per line: the codec encodes one sample frame, and each frame is that sample with its
 * sequence number and its JSON-escaped text put in (a plain line without `JSON.stringify`: see
 * {@link PLAIN_LINE}). Any other outcome goes through `encodeFrame`.
 *
 * @example
 * ```ts
 * const encode = textFrameEncoder('call-1', bridgeCodec);
 * encode(0, 'hello\n'); // '{"call_id":"call-1","outcome":{"ok":true,"stream":true,"sequence":0,…}}\n'
 * ```
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
