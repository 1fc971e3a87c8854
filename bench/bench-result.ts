/** What one run of one variant reports to the runner (one JSON line on the child's stdout). */
export interface RunResult {
  /** Throughput: lines consumed and the seconds it took (from spawn to the last line). */
  readonly lines?: number;
  readonly seconds?: number;
  /** Throughput: the CPU time (user + system) of the reading process over the same span, in seconds. */
  readonly cpuSeconds?: number;
  /** Throughput: the same variant run a second time in the same process, once V8 has optimized it. */
  readonly second?: ThroughputFigures;
  /** Latency: write → handler, in microseconds, one per line (after warm-up). */
  readonly latenciesUs?: readonly number[];
  /** Slow consumer: the child's lead and the parent's memory. */
  readonly slow?: SlowFigures;
  /**
   * Cancel: unsubscribe → every process of the run gone, in milliseconds, one per repetition (the
   * `spawn-*` variants of the cancel section: subscribe → the `exit` event of `true`).
   */
  readonly cancelMs?: readonly number[];
  /** Import cost in milliseconds. */
  readonly importMs?: number;
  /** Start-up: one whole process, wall and CPU (user + system) time in milliseconds. */
  readonly wallMs?: number;
  readonly cpuMs?: number;
  /** Redis throughput: how many lines the producer wrote (every one must arrive). */
  readonly expectedLines?: number;
  /** Redis memory for retained runs. */
  readonly redisMemory?: RedisMemoryFigures;
}

/** The figures of one throughput run: lines read, wall seconds, the reading process's CPU seconds. */
export interface ThroughputFigures {
  readonly lines: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
}

/** Redis's `used_memory` growth for `runs` ended runs of `linesPerRun` 60-byte lines. */
export interface RedisMemoryFigures {
  readonly runs: number;
  readonly linesPerRun: number;
  /** Written in batches (as a fast producer does: few stream entries per run). */
  readonly batchedBytes: number;
  /** One stream entry per line (as a slow producer does). */
  readonly perLineBytes: number;
}

/** The figures of a slow-consumer run. */
export interface SlowFigures {
  /** Largest (bytes the child wrote − bytes the consumer took) seen while sampling. */
  readonly maxLeadBytes: number;
  readonly consumedLines: number;
  readonly childWrittenBytes: number;
  readonly rssStartBytes: number;
  readonly rssPeakBytes: number;
  /** Why the run stopped: its time was up, or the parent's RSS reached the cap. */
  readonly stoppedBy: 'time' | 'rss';
  readonly seconds: number;
}

/** What a benchmark child is told: the variant and its parameters. */
export interface RunParams {
  readonly variant: string;
  /** The producer command of throughput variants. */
  readonly command: string;
  readonly args: readonly string[];
  /** How many lines the producer writes. */
  readonly lines: number;
  /** How long a slow-consumer run consumes, in ms. */
  readonly slowMs: number;
  /** Repetitions inside one child (cancel). */
  readonly reps: number;
  /** Lines of the latency tickers. */
  readonly latencyLines: number;
  readonly fixtures: string;
  readonly tmp: string;
  /**
   * Runs of the measurements made of many short runs, when not their own count: `exec-runs*` (200;
   * `exec-spans*` go through 100 span lifecycles per run) and `redis-memory` (1000 ended runs).
   */
  readonly manyRuns?: number;
}
