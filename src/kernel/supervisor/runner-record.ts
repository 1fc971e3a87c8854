import type { ToolChunk } from '../tools/tool.js';
import type { MalformedLine, RunnerExitInfo, RunnerToolCall } from './runner.js';

const MAX_STDERR = 64 * 1024;
const MAX_SHOWN_LINE = 200;

export interface RunnerStatus {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
}

/**
 * What a runner has said so far, bounded whatever it writes: the first `maxChunks` chunks and
 * `maxMalformed` malformed lines (the rest counted), its tool calls, the first 64 KiB of stderr
 * and its `result` message.
 */
export class RunnerRecord {
  readonly #chunks: ToolChunk[] = [];
  #chunksDropped = 0;
  readonly #malformed: MalformedLine[] = [];
  #malformedDropped = 0;
  readonly #toolCalls: RunnerToolCall[] = [];
  #stderr = '';
  #result: { value: unknown } | undefined;

  constructor(
    private readonly maxChunks: number,
    private readonly maxMalformed: number,
  ) {}

  /** The chunks kept so far (a copy). */
  get chunks(): readonly ToolChunk[] {
    return [...this.#chunks];
  }

  addChunk(chunk: ToolChunk): void {
    if (this.#chunks.length < this.maxChunks) this.#chunks.push(chunk);
    else this.#chunksDropped += 1;
  }

  /** Records a malformed line (cut to 200 characters) and returns the entry. */
  addMalformed(line: string, problem: string): MalformedLine {
    const shown = line.length > MAX_SHOWN_LINE ? `${line.slice(0, MAX_SHOWN_LINE - 3)}...` : line;
    const entry = { line: shown, problem };
    if (this.#malformed.length < this.maxMalformed) this.#malformed.push(entry);
    else this.#malformedDropped += 1;
    return entry;
  }

  /** Starts a tool call's entry; the caller sets its `result` when it answers. */
  addToolCall(id: string | number | null, name: string | null): { result: RunnerToolCall['result'] } {
    const call = { id, name, result: undefined };
    this.#toolCalls.push(call);
    return call;
  }

  addStderr(text: string): void {
    if (this.#stderr.length < MAX_STDERR) this.#stderr += text.slice(0, MAX_STDERR - this.#stderr.length);
  }

  setResult(value: unknown): void {
    this.#result = { value };
  }

  exitInfo(pid: number, status: RunnerStatus, durationMs: number): RunnerExitInfo {
    return {
      pid,
      ...status,
      chunks: this.chunks,
      chunksDropped: this.#chunksDropped,
      toolCalls: [...this.#toolCalls],
      malformed: [...this.#malformed],
      malformedDropped: this.#malformedDropped,
      ...(this.#result === undefined ? {} : { result: this.#result.value }),
      stderr: this.#stderr,
      durationMs,
    };
  }
}
