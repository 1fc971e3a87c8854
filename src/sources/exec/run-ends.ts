import type { ExitInfo, OutputStream } from './process-port.js';

/**
 * What an exec run waits for before its final event: the leader's exit AND the end of both pipes
 * (a pipe held open by a grandchild ends later than the exit). Each is counted once.
 *
 * @example
 * ```ts
 * const ends = new RunEnds();
 * ends.exited({ exitCode: 0, signal: null }, scheduler.now());
 * ends.pipeEnded('stdout');
 * ends.pipeEnded('stderr');
 * ends.complete; // true
 * ```
 */
export class RunEnds {
  #exit: ExitInfo | undefined;
  #exitedAt = 0;
  #stdout = false;
  #stderr = false;

  /** The leader's exit, once it exited. */
  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  /** When the leader exited (the scheduler's clock). */
  get exitedAt(): number {
    return this.#exitedAt;
  }

  /** Whether both pipes ended. */
  get pipesEnded(): boolean {
    return this.#stdout && this.#stderr;
  }

  /** Whether the leader exited and both pipes ended. */
  get complete(): boolean {
    return this.#exit !== undefined && this.#stdout && this.#stderr;
  }

  /** Records the leader's exit; `false` if it was already recorded. */
  exited(info: ExitInfo, at: number): boolean {
    if (this.#exit !== undefined) return false;
    this.#exit = info;
    this.#exitedAt = at;
    return true;
  }

  /** Records the end of `stream`; `false` if it had already ended. */
  pipeEnded(stream: OutputStream): boolean {
    if (stream === 'stdout') {
      if (this.#stdout) return false;
      this.#stdout = true;
    } else {
      if (this.#stderr) return false;
      this.#stderr = true;
    }
    return true;
  }
}
