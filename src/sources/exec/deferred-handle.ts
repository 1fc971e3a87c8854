import type { ProcessHandle } from './process-port.js';

type Write = readonly [bytes: Uint8Array, callback: (error?: Error | null) => void];

/**
 * A {@link ProcessHandle} for a child that is not spawned yet (its port is still loading): it
 * remembers what `exec` asks until the real handle is {@link DeferredHandle.attach}ed, then
 * replays it there, in this order: the kills, the pause, the stdin writes, the end of stdin.
 *
 * - **Cancel before spawn means never spawned**: after {@link DeferredHandle.destroy},
 *   {@link DeferredHandle.wanted} is `false` and the port must not spawn at all.
 * - **A kill before spawn kills at once**: a timeout that fired while loading queues its signal
 *   (and, through `groupAlive()` being `true` meanwhile, the `SIGKILL` escalation); both reach
 *   the group as soon as it exists.
 * - `pid` is `undefined` until attached, then the real one.
 * - {@link DeferredHandle.fail} (the port could not load) ends pending stdin writes with an error.
 *
 * @example
 * ```ts
 * const handle = new DeferredHandle();
 * handle.pause(); // remembered
 * load().then((port) => {
 *   if (handle.wanted) handle.attach(port.spawn(request, events)); // spawned, then paused
 * });
 * ```
 */
export class DeferredHandle implements ProcessHandle {
  #real: ProcessHandle | undefined;
  #settled = false;
  #destroyed = false;
  #paused = false;
  #inputEnded = false;
  #signals: NodeJS.Signals[] = [];
  #writes: Write[] = [];

  get pid(): number | undefined {
    return this.#real?.pid;
  }

  /** Whether the child should still be spawned: not destroyed, not attached, not failed. */
  get wanted(): boolean {
    return !this.#settled && !this.#destroyed;
  }

  /** Hands over to the real handle and replays what was asked meanwhile. */
  attach(real: ProcessHandle): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#real = real;
    for (const signal of this.#signals) real.killGroup(signal);
    if (this.#paused) real.pause();
    for (const [bytes, callback] of this.#writes) real.writeInput(bytes, callback);
    if (this.#inputEnded) real.endInput();
    if (this.#destroyed) real.destroy();
    this.#signals = [];
    this.#writes = [];
  }

  /** The child will never exist: pending stdin writes end with an error. */
  fail(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#failWrites();
  }

  pause(): void {
    if (this.#real) this.#real.pause();
    else this.#paused = true;
  }

  resume(): void {
    if (this.#real) this.#real.resume();
    else this.#paused = false;
  }

  killGroup(signal: NodeJS.Signals): void {
    if (this.#real) this.#real.killGroup(signal);
    else if (this.wanted) this.#signals.push(signal);
  }

  groupAlive(): boolean {
    return this.#real ? this.#real.groupAlive() : this.wanted;
  }

  writeInput(bytes: Uint8Array, callback: (error?: Error | null) => void): void {
    if (this.#real) this.#real.writeInput(bytes, callback);
    else if (this.wanted) this.#writes.push([bytes, callback]);
    else callback(new Error('the process did not start'));
  }

  endInput(): void {
    if (this.#real) this.#real.endInput();
    else this.#inputEnded = true;
  }

  destroy(): void {
    if (this.#real) {
      this.#real.destroy();
      return;
    }
    this.#destroyed = true;
    this.#signals = [];
    this.#failWrites();
  }

  #failWrites(): void {
    const writes = this.#writes;
    this.#writes = [];
    for (const [, callback] of writes) callback(new Error('the process did not start'));
  }
}
