import { type Observable, Subscription } from 'rxjs';
import { Valve } from '../../core/demand.js';
import { subscribeWithDemand } from '../../core/subscriber-chain.js';
import type { ProcessHandle } from './process-port.js';

const encoder = new TextEncoder();
const toBytes = (value: string | Uint8Array): Uint8Array =>
  typeof value === 'string' ? encoder.encode(value) : value;

/**
 * Writes `input` to the child's stdin, then closes it. An Observable is written with
 * backpressure: one value at a time, the next only after the previous write was handed to the OS;
 * it is subscribed with a {@link Valve} of its own as its demand (closed while a write is pending,
 * so a pausable producer pauses, and the consumer's demand never leaks into it), and values pushed
 * regardless wait in a queue. A failed write (the child closed stdin: EPIPE) stops the writing
 * quietly; an error of `input` itself goes to `fail`. Returns the teardown.
 */
export function writeInput(
  input: string | Uint8Array | Observable<string | Uint8Array>,
  handle: ProcessHandle,
  fail: (error: unknown) => void,
): () => void {
  if (typeof input === 'string' || input instanceof Uint8Array) {
    handle.writeInput(toBytes(input), (error) => {
      if (!error) handle.endInput();
    });
    return () => {};
  }
  const valve = new Valve();
  const queue: Uint8Array[] = [];
  let writing = false;
  let completed = false;
  let stopped = false;
  const pump = (): void => {
    if (stopped) return;
    const next = queue.shift();
    if (next === undefined) {
      writing = false;
      if (completed) handle.endInput();
      else valve.resume();
      return;
    }
    writing = true;
    handle.writeInput(next, (error) => {
      if (error) stop();
      else pump();
    });
  };
  const subscription = new Subscription();
  function stop(): void {
    stopped = true;
    queue.length = 0;
    subscription.unsubscribe();
  }
  subscribeWithDemand(
    input,
    valve,
    {
      next: (value: string | Uint8Array) => {
        queue.push(toBytes(value));
        valve.pause();
        if (!writing) pump();
      },
      error: (error: unknown) => {
        stop();
        fail(error);
      },
      complete: () => {
        completed = true;
        if (!writing) handle.endInput();
      },
    },
    subscription,
  );
  return stop;
}
