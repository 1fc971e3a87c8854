import type { SchedulerLike, Subscription } from 'rxjs';
import { Valve } from '../core/demand.js';
import type { ToolChunk } from '../kernel/index.js';

/** One `notifications/progress` update (no token): `progress` counts the chunks sent, `message` is their text. */
export interface ProgressUpdate {
  readonly progress: number;
  readonly message: string;
}

/** How {@link createProgressPump} sends and paces. */
export interface ProgressPumpConfig {
  /** Sends one update; resolves when the transport took it (stdio: after `'drain'`). */
  readonly send: (update: ProgressUpdate) => Promise<void>;
  /** At most one update per this many ms; the lines of a window go out together. */
  readonly intervalMs: number;
  /** Pending text (UTF-16 code units) past which the tool is paused through {@link ProgressPump.demand}. */
  readonly highWaterChars: number;
  readonly scheduler: SchedulerLike;
}

/**
 * Turns a tool's chunks into `notifications/progress` updates paced by the client: the first at
 * once, then at most one per `intervalMs` carrying every chunk since (none dropped); one in
 * flight at a time; `demand` paused while more than `highWaterChars` wait. A chunk's text is its
 * `content` (anything but a string as JSON on its own line); stderr lines start `[stderr] `.
 */
export function createProgressPump(config: ProgressPumpConfig): ProgressPump {
  return new ProgressPump(config);
}

/** The sending side of one tool call's progress: what waits, what is in flight, when the next update may go. */
export class ProgressPump {
  /** Paused while more than `highWaterChars` of text wait for the transport. */
  readonly demand = new Valve();
  #pending: string[] = [];
  #pendingChars = 0;
  #count = 0;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #inFlight = false;
  #timer: Subscription | undefined;
  #flushing = false; // the result is waiting: send the rest without waiting for the interval
  #closed = false;
  #stderrOpen = false; // a stderr line began (in partial pieces) and has not ended yet
  readonly #idle: (() => void)[] = [];

  constructor(private readonly config: ProgressPumpConfig) {}

  /** Takes a chunk from the tool (its `onChunk`). */
  readonly push = (chunk: ToolChunk): void => {
    if (this.#closed) return;
    this.#count += 1;
    const marked = markedText(chunk, this.#stderrOpen);
    if (chunk.kind === 'stderr') this.#stderrOpen = chunk.metadata?.partial === true;
    this.#pending.push(marked);
    this.#pendingChars += marked.length;
    if (this.#pendingChars >= this.config.highWaterChars) this.demand.pause();
    this.#schedule();
  };

  /** How many chunks were pushed. */
  readonly chunks = (): number => this.#count;

  /** Sends what is pending now; resolves once every update went out (or sending failed). */
  flush(): Promise<void> {
    this.#flushing = true;
    this.#timer?.unsubscribe();
    this.#timer = undefined;
    this.#schedule();
    return new Promise<void>((resolve) => {
      this.#idle.push(resolve);
      this.#settleIdle();
    });
  }

  /** Stops: pending text is discarded, no further update is sent. */
  close(): void {
    this.#closed = true;
    this.#timer?.unsubscribe();
    this.#timer = undefined;
    this.#pending = [];
    this.#pendingChars = 0;
    this.demand.resume();
    this.#settleIdle();
  }

  #settleIdle(): void {
    if (this.#inFlight || this.#timer !== undefined || this.#pending.length > 0) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  #sendNow(): void {
    this.#timer = undefined;
    const message = this.#pending.join('');
    this.#pending = [];
    this.#pendingChars = 0;
    this.#lastSentAt = this.config.scheduler.now();
    this.#inFlight = true;
    this.config.send({ progress: this.#count, message }).then(
      () => {
        this.#inFlight = false;
        if (this.#closed) return this.#settleIdle();
        if (this.#pendingChars < this.config.highWaterChars) this.demand.resume();
        this.#schedule();
        this.#settleIdle();
      },
      () => {
        // The transport is gone (and the call is cancelled with it): nothing more can be sent.
        this.#inFlight = false;
        this.close();
      },
    );
  }

  #schedule(): void {
    if (this.#closed || this.#inFlight || this.#timer !== undefined || this.#pending.length === 0) return;
    const { intervalMs, scheduler } = this.config;
    const wait = this.#flushing ? 0 : Math.max(0, this.#lastSentAt + intervalMs - scheduler.now());
    if (wait === 0 && this.#flushing) this.#sendNow();
    else this.#timer = scheduler.schedule(() => this.#sendNow(), wait);
  }
}

/** A chunk's text, `[stderr] ` at the start of a stderr line (not of its later partial pieces). */
function markedText(chunk: ToolChunk, stderrOpen: boolean): string {
  const text = textOf(chunk);
  return chunk.kind === 'stderr' && !stderrOpen ? `[stderr] ${text}` : text;
}

function textOf(chunk: ToolChunk): string {
  const { content } = chunk;
  if (typeof content === 'string') return content;
  if (content instanceof Uint8Array) return Buffer.from(content).toString('utf8');
  return `${JSON.stringify(content) ?? String(content)}\n`;
}
