import { isObservable, type Observable, Subscription } from 'rxjs';
import { checkArgument } from '../core/check-argument.js';
import { Valve } from '../core/demand.js';
import { subscribeWithDemand } from '../core/subscriber-chain.js';
import { type IgnoredDemandOptions, readAdapterOptions } from './ignored-demand.js';

/** Options of {@link toReadableStream}. */
export interface ToReadableStreamOptions extends IgnoredDemandOptions {
  /** The stream's queue size, in values (default `16`; `0`: only while a `read()` is pending). */
  readonly highWaterMark?: number;
}

/**
 * Consumes an Observable as a WHATWG `ReadableStream` (the global one: Node ≥ 18 and browsers;
 * no Node imports). The stream's `pull` is demand:
 *
 * - the first `pull` subscribes with a `Valve` as the demand (on the subscriber chain). Following
 *   the WHATWG rules, a stream with `highWaterMark > 0` pulls as soon as it is created, so the
 *   producer starts then and fills the queue up to `highWaterMark` even before a reader reads;
 * - each value is enqueued; when the queue's `desiredSize` drops to `0` the valve is paused
 *   (a child process then blocks on its full pipe), and the next `pull` — made by the stream when
 *   a reader drains it — resumes it;
 * - `cancel(reason)` (a reader's `cancel()`, a `pipeTo` whose destination failed, a `break` out
 *   of `for await` over the stream) unsubscribes: the producer's teardown runs before the cancel
 *   promise settles;
 * - the source's error goes to `controller.error` (queued values are then discarded, as WHATWG
 *   streams do: read them before the error arrives, or use {@link toAsyncIterable} which keeps
 *   them); completion closes the stream after the queued values.
 *
 * A producer that ignores demand keeps enqueuing past `highWaterMark` (the queue grows, and at
 * 8 × `highWaterMark` a warning says so: `onIgnoredDemand`); put `bounded(...)` in front to cap
 * it (see `docs/backpressure.md`).
 *
 * @param source the Observable to expose
 * @param options `highWaterMark` (default 16), validated before anything subscribes
 * @throws TypeError when `source` is not an Observable or an option is invalid
 *
 * @example
 * ```ts
 * import { map } from 'rxjs';
 * import { exec } from 'sluice/sources';
 * import { toReadableStream } from 'sluice/adapters';
 *
 * const body = toReadableStream(exec('tail', ['-f', 'app.log']).pipe(map((e) => `${e.content}\n`)))
 *   .pipeThrough(new TextEncoderStream());
 * return new Response(body); // the client going away cancels the stream and kills tail
 * ```
 */
export function toReadableStream<T>(
  source: Observable<T>,
  options?: ToReadableStreamOptions,
): ReadableStream<T> {
  checkArgument(source, 'source', isObservable, 'an Observable');
  const read = readAdapterOptions(options, 'toReadableStream', 'highWaterMark', (error) => fail(error));
  const highWaterMark = read.size;
  let overfill = read.overfill;
  const valve = new Valve();
  let subscription: Subscription | undefined;
  let cancelled = false;
  /** The ignored-demand error, held until the reader has taken every value queued before it. */
  let failure: { readonly error: unknown } | undefined;
  let fail: (error: unknown) => void = () => {};

  return new ReadableStream<T>(
    {
      pull(controller) {
        if (failure !== undefined) {
          if ((controller.desiredSize ?? 0) >= highWaterMark) controller.error(failure.error);
          return;
        }
        valve.resume();
        if (subscription !== undefined || cancelled) return;
        fail = (error) => {
          cancelled = true;
          subscription?.unsubscribe();
          // WHATWG `error()` discards the queue: wait until the reader has drained it.
          if ((controller.desiredSize ?? 0) >= highWaterMark) controller.error(error);
          else failure = { error };
        };
        const owner = new Subscription();
        subscription = owner;
        const observer = {
          next: (value: T) => {
            if (cancelled) return;
            controller.enqueue(value);
            const desired = controller.desiredSize ?? 0;
            if (desired <= 0) valve.pause();
            if (overfill !== undefined && -desired + highWaterMark >= overfill.at) {
              const hook = overfill;
              overfill = undefined;
              hook.call(highWaterMark - desired);
            }
          },
          error: (error: unknown) => {
            if (!cancelled) controller.error(error);
          },
          complete: () => {
            if (!cancelled) controller.close();
          },
        };
        subscribeWithDemand(source, valve, observer, owner);
        if (cancelled) owner.unsubscribe();
      },
      cancel() {
        cancelled = true;
        subscription?.unsubscribe();
      },
    },
    { highWaterMark },
  );
}
