/** Which kind of measurement a variant is. */
export type BenchGroup =
  | 'throughput'
  | 'latency'
  | 'slow'
  | 'compose'
  | 'work'
  | 'cancel'
  | 'import'
  | 'start'
  | 'redis';

/** One variant of the suite, as the runner schedules it. */
export interface VariantSpec {
  readonly name: string;
  readonly group: BenchGroup;
  /** Throughput producers: `cat` of a generated file (default) or the `lines.mjs` node child. */
  readonly producer?: 'cat' | 'node';
  /** What it is, for the table. */
  readonly label: string;
  /** Throughput variants whose "lines" are whole runs (bench/trace-runs.ts): their own table, in runs/s. */
  readonly unit?: 'runs';
}

const throughput = (name: string, label: string, producer: 'cat' | 'node' = 'cat'): VariantSpec => ({
  name: producer === 'cat' ? name : `${name}@node`,
  group: 'throughput',
  producer,
  label: producer === 'cat' ? label : `${label} (node producer)`,
});

const runs = (name: string, label: string): VariantSpec => ({ ...throughput(name, label), unit: 'runs' });

/**
 * Every variant of the suite, in the order the table shows them.
 *
 * @example
 * ```ts
 * CATALOG.filter((variant) => variant.group === 'latency').map((variant) => variant.name);
 * ```
 */
export const CATALOG: readonly VariantSpec[] = [
  throughput('raw-bytes', 'bytes only, no splitting (the ceiling)'),
  throughput('raw-data-split', "'data' + indexOf line split"),
  throughput('naive-rxjs', "hand-written RxJS Observable over 'data'"),
  throughput('readline-events', "readline 'line' events"),
  throughput('readline-iterator', 'readline async iterator'),
  throughput('execa-iterator', 'execa 9 for await (buffer: false)'),
  throughput('exec-push', 'sluice exec, subscribe (push)'),
  throughput('exec-iterable', 'sluice exec → toAsyncIterable'),
  throughput('exec-push-no-otel', 'sluice exec, subscribe (push), without @opentelemetry/api'),
  throughput('exec-iterable-no-otel', 'sluice exec → toAsyncIterable, without @opentelemetry/api'),
  runs('exec-runs', "200 runs of 'true' → toAsyncIterable, API without SDK"),
  runs('exec-runs-no-otel', "200 runs of 'true' → toAsyncIterable, without @opentelemetry/api"),
  runs('exec-runs-sdk', "200 runs of 'true' → toAsyncIterable, SDK recording every span"),
  runs('exec-spans', "an exec run's tracing alone (span, events, end, metrics), API without SDK"),
  runs('exec-spans-sdk', "an exec run's tracing alone (span, events, end, metrics), SDK recording"),
  throughput('exec-tty', 'sluice exec, tty: true (a terminal through script), subscribe (push)'),
  throughput('raw-node-pty', '@lydell/node-pty + onData split (hand-written, no demand)'),
  throughput('exec-onchunk', 'sluice exec → async onChunk'),
  throughput('exec-coalesce', 'sluice exec → coalesce → subscribe'),
  throughput('kernel-stream', 'sluice kernel host + bridge, for await'),
  throughput('cli-json', 'sluice exec --json | wc -l (NDJSON frames into a pipe)'),
  throughput('mcp-progress', 'sluice/mcp Exec → SDK Client, progress (in memory)'),
  throughput('mcp-http-progress', 'sluice mcp --http Exec → SDK Client over HTTP, progress (memory store)'),
  throughput('raw-data-split', "'data' + indexOf line split", 'node'),
  throughput('exec-push', 'sluice exec, subscribe (push)', 'node'),
  throughput('exec-iterable', 'sluice exec → toAsyncIterable', 'node'),
  { name: 'latency-raw-data', group: 'latency', label: "raw 'data' handler" },
  { name: 'latency-execa-iterator', group: 'latency', label: 'execa 9 for await' },
  { name: 'latency-exec-push', group: 'latency', label: 'sluice exec, subscribe' },
  { name: 'latency-exec-iterable', group: 'latency', label: 'sluice exec → toAsyncIterable' },
  { name: 'slow-naive-rxjs', group: 'slow', label: 'fromEvent → concatMap(timer(1)) (naive RxJS)' },
  { name: 'slow-no-read', group: 'slow', label: 'nothing reads (the socketpair + Node buffer floor)' },
  { name: 'slow-readline-iterator', group: 'slow', label: 'readline async iterator' },
  { name: 'slow-execa-iterator', group: 'slow', label: 'execa 9 for await' },
  { name: 'slow-exec-iterable', group: 'slow', label: 'sluice exec → toAsyncIterable (16)' },
  { name: 'slow-exec-onchunk', group: 'slow', label: 'sluice exec → async onChunk (16)' },
  { name: 'slow-exec-tty', group: 'slow', label: 'sluice exec, tty: true → toAsyncIterable (16)' },
  { name: 'slow-node-pty', group: 'slow', label: '@lydell/node-pty, hand-written pause() at 16 lines' },
  { name: 'slow-kernel-stream', group: 'slow', label: 'sluice kernel host + bridge (buffer_size 16)' },
  { name: 'compose-concatmap', group: 'compose', label: 'timer → concatMap(sluice exec) → toAsyncIterable' },
  { name: 'compose-concatmap-naive', group: 'compose', label: "timer → concatMap(fromEvent 'data') (naive)" },
  { name: 'compose-mergemap', group: 'compose', label: 'timer → mergeMap(sluice exec, 2) → toAsyncIterable' },
  {
    name: 'compose-mergemap-naive',
    group: 'compose',
    label: "timer → mergeMap(fromEvent 'data', 2) (naive)",
  },
  {
    name: 'compose-share',
    group: 'compose',
    label: 'sluice exec → sluice share(), a fast and a slow consumer',
  },
  {
    name: 'compose-share-naive',
    group: 'compose',
    label: "fromEvent 'data' → RxJS share(), fast + slow (naive)",
  },
  { name: 'work-concatmap', group: 'work', label: 'sluice exec → sluice concatMap(work 1 ms) → subscribe()' },
  {
    name: 'work-concatmap-rxjs',
    group: 'work',
    label: "sluice exec → RxJS's concatMap(work 1 ms) → subscribe()",
  },
  {
    name: 'work-mergemap',
    group: 'work',
    label: 'sluice exec → sluice mergeMap(work 4 ms, 4) → subscribe()',
  },
  {
    name: 'work-mergemap-rxjs',
    group: 'work',
    label: "sluice exec → RxJS's mergeMap(work 4 ms, 4) → subscribe()",
  },
  { name: 'work-zip', group: 'work', label: 'sluice zip(exec flood, exec 1 line/ms) → subscribe()' },
  { name: 'work-zip-rxjs', group: 'work', label: "RxJS's zip(exec flood, exec 1 line/ms) → subscribe()" },
  { name: 'work-effect', group: 'work', label: 'Effect: streamLines → Stream.mapEffect(work 1 ms)' },
  { name: 'work-zx', group: 'work', label: 'zx: for await (line of $`cmd`) await work(1 ms)' },
  { name: 'cancel-term', group: 'cancel', label: 'group exits on SIGTERM' },
  { name: 'cancel-ignore-term', group: 'cancel', label: 'group ignores SIGTERM (forceKillAfterMs 200)' },
  {
    name: 'cancel-term-cgroup',
    group: 'cancel',
    label: "the same, containment 'cgroup' (until cgroup.events says populated 0)",
  },
  {
    name: 'cancel-ignore-term-cgroup',
    group: 'cancel',
    label: "ignores SIGTERM, containment 'cgroup' (SIGKILL = cgroup.kill after 200 ms)",
  },
  {
    name: 'cancel-daemon-cgroup',
    group: 'cancel',
    label: "a setsid daemon (only containment 'cgroup' ends it)",
  },
  { name: 'spawn-group', group: 'cancel', label: "spawn → exit event of `true`, containment 'group'" },
  {
    name: 'spawn-cgroup',
    group: 'cancel',
    label: "spawn → exit event of `true`, containment 'cgroup' (a cgroup per run)",
  },
  {
    name: 'redis-throughput',
    group: 'redis',
    label: 'cat → exec → toRunStore → Redis → fromRunStore in another process',
  },
  {
    name: 'redis-latency',
    group: 'redis',
    label: '1 line/ms: write → Redis → handler of a follower process',
  },
  { name: 'redis-cancel', group: 'redis', label: 'cancel() on one instance → the owner, via Redis pub/sub' },
  {
    name: 'redis-web-cancel',
    group: 'redis',
    label: "DELETE on a second web server → the owner's process group gone, via Redis",
  },
  { name: 'redis-memory', group: 'redis', label: 'Redis memory of 1,000 ended runs of 100 lines (60 B)' },
  {
    name: 'redis-mcp-http-progress',
    group: 'redis',
    label: 'sluice mcp --http Exec → SDK Client over HTTP, progress (Redis store), 500k lines',
  },
  {
    name: 'redis-mcp-http-resume',
    group: 'redis',
    label: 'MCP over HTTP: GET with Last-Event-ID → first resumed event (Redis store)',
  },
  {
    name: 'redis-mcp-http-cancel',
    group: 'redis',
    label: 'MCP over HTTP: notifications/cancelled on a second instance → the group gone, via Redis',
  },
  {
    name: 'cancel-mcp-http-resume',
    group: 'cancel',
    label: 'MCP over HTTP: GET with Last-Event-ID → first resumed event (memory store)',
  },
  {
    name: 'redis-cluster-throughput',
    group: 'redis',
    label: 'cat → exec → toRunStore → 3-master Redis Cluster → fromRunStore in another process',
  },
  {
    name: 'redis-cluster-latency',
    group: 'redis',
    label: '1 line/ms: write → 3-master Redis Cluster → handler of a follower process',
  },
  {
    name: 'redis-cluster-failover',
    group: 'redis',
    label: "a master killed mid-run (node timeout 1.5 s) → the writer's next event stored on its replica",
  },
  {
    name: 'cancel-mcp',
    group: 'cancel',
    label: 'MCP AbortSignal → notifications/cancelled (sluice/mcp, in memory)',
  },
  { name: 'import-rxjs', group: 'import', label: "import 'rxjs'" },
  { name: 'import-execa', group: 'import', label: "import 'execa'" },
  { name: 'import-sluice', group: 'import', label: "import 'sluice' (root entry, bundled like dist)" },
  { name: 'start-node', group: 'start', label: 'node -e 0 (bare Node)' },
  { name: 'start-cli', group: 'start', label: 'sluice exec -- true (dist/cli/main.js)' },
  { name: 'start-execa-script', group: 'start', label: "script: import execa, one execa('echo')" },
  { name: 'start-sluice-script', group: 'start', label: "script: import sluice, one exec('echo')" },
];
