import type { OperatorFunction } from 'rxjs';
import { type InvalidFrameError, isInvalidFrameError } from '../../core/errors/invalid-frame-error.js';
import { createOperatorSubscriber, operate } from '../../core/operate.js';
import { readFunction } from '../../core/read-function.js';
import { readOption } from '../../core/read-option.js';
import { rejectUnknownOptions } from '../../core/reject-unknown-options.js';
import { createFrameDecoder, type FrameDecoderConfig } from './frame-decoder.js';
import type { HostcallFrame } from './hostcall-frame.js';
import type { OutcomeCodec } from './outcome-codec.js';

/** Options of {@link decodeFrames}. */
export interface DecodeFramesConfig extends FrameDecoderConfig {
  /**
   * What a malformed line does: `'error'` (default) errors the output with its
   * `InvalidFrameError` and unsubscribes from the source; `'skip'` drops it, reports it to
   * `onInvalidFrame`, and goes on with the next line.
   */
  readonly invalidFrames?: 'error' | 'skip';
  /** Called with each malformed line's error when `invalidFrames` is `'skip'`. */
  readonly onInvalidFrame?: (error: InvalidFrameError) => void;
}

/**
 * Decodes an NDJSON byte (or text) stream into {@link HostcallFrame}s, in `codec`'s shape,
 * with {@link createFrameDecoder}: pieces may be split anywhere; a last line without a newline
 * is decoded when the source completes. Nothing is buffered but the current partial line, and
 * the source is subscribed synchronously, so a consumer's demand reaches the producer through it.
 *
 * @example
 * ```ts
 * import { decodeFrames, serdeCodec } from 'sluice/kernel';
 * hostStdout$.pipe(decodeFrames(serdeCodec)).subscribe(({ callId, outcome }) => console.log(callId, outcome));
 * // keep going past bad lines:
 * hostStdout$.pipe(decodeFrames(serdeCodec, { invalidFrames: 'skip', onInvalidFrame: (e) => console.warn(e.message) }));
 * ```
 */
export function decodeFrames(
  codec: OutcomeCodec,
  config: DecodeFramesConfig = {},
): OperatorFunction<Uint8Array | string, HostcallFrame> {
  rejectUnknownOptions(config, ['invalidFrames', 'onInvalidFrame', 'maxFrameBytes', 'maxFrameDepth']);
  const invalidFrames = readOption<'error' | 'skip'>(
    config,
    'invalidFrames',
    (value) => value === 'error' || value === 'skip',
    "'error' or 'skip'",
    'error',
  );
  const onInvalidFrame = readFunction<(error: InvalidFrameError) => void, undefined>(
    config,
    'onInvalidFrame',
    undefined,
  );
  const limits: FrameDecoderConfig = {
    maxFrameBytes: config.maxFrameBytes,
    maxFrameDepth: config.maxFrameDepth,
  };
  createFrameDecoder(codec, limits); // validates maxFrameBytes before anything subscribes
  return operate((source, subscriber) => {
    const decoder = createFrameDecoder(codec, limits);
    const deliver = (results: ReadonlyArray<HostcallFrame | InvalidFrameError>) => {
      for (const result of results) {
        if (subscriber.closed) return;
        if (!isInvalidFrameError(result)) subscriber.next(result);
        else if (invalidFrames === 'error') subscriber.error(result);
        else onInvalidFrame?.(result);
      }
    };
    source.subscribe(
      createOperatorSubscriber<Uint8Array | string>(
        subscriber,
        (piece) => deliver(decoder.push(piece)),
        () => {
          deliver(decoder.end());
          subscriber.complete();
        },
      ),
    );
  });
}
