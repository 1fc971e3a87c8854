/** The runner's settings, from its command line. */
export interface BenchFlags {
  /** One JSON object per line instead of the table. */
  readonly json: boolean;
  /** Also write the JSON lines to this file (with the table on stdout). */
  readonly jsonFile: string | undefined;
  /** Tiny sizes, one run each: the smoke test's mode. */
  readonly quick: boolean;
  /** Lines the throughput producers write. */
  readonly lines: number;
  /** Runs of each throughput variant (the median is reported). */
  readonly runs: number;
  /** Lines of the latency ticker (one every 2 ms). */
  readonly latencyLines: number;
  /** How long each slow-consumer run consumes, in ms. */
  readonly slowMs: number;
  /** Repetitions of the cancel and import measurements. */
  readonly reps: number;
  /** Rounds of the start-up measurements (each round runs every start variant once, alternating). */
  readonly startRuns: number;
  /** How many benchmark children run at once (default 1; `--quick` 3: its figures are only a smoke test). */
  readonly parallel: number;
  /** Only variants whose name matches this regular expression (the summary then lacks ratios). */
  readonly only: RegExp | undefined;
}

const HELP = `usage: npm run bench -- [--json] [--quick] [--lines N] [--runs N] [--latency-lines N]
                        [--slow-ms MS] [--reps N] [--start-runs N] [--parallel N]
                        [--only REGEX]
                        [--json-file FILE]`;

/**
 * Parses the runner's flags (`--lines 500000`, `--lines=500000`). `--quick` sets small defaults
 * that explicit flags still override. Throws a `TypeError` naming a bad flag.
 *
 * @example
 * ```ts
 * parseFlags(['--json', '--runs', '3']).runs; // 3
 * ```
 */
export function parseFlags(argv: readonly string[]): BenchFlags {
  const given = new Map<string, string>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--help' || arg === '-h') {
      console.log(HELP);
      process.exit(0);
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new TypeError(`Unexpected argument \`${arg}\`\n${HELP}`);
    const [, name = '', inline] = match;
    if (name === 'json' || name === 'quick') given.set(name, 'true');
    else {
      const value = inline ?? argv[++index];
      if (value === undefined) throw new TypeError(`Expected a value after \`--${name}\``);
      given.set(name, value);
    }
  }
  const quick = given.has('quick');
  const count = (name: string, fallback: number, minimum = 1): number => {
    const raw = given.get(name);
    given.delete(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < minimum) {
      throw new TypeError(`Expected the \`--${name}\` flag to be an integer >= ${minimum}, got \`${raw}\``);
    }
    return value;
  };
  const flags: BenchFlags = {
    json: given.delete('json'),
    quick: given.delete('quick'),
    lines: count('lines', quick ? 20_000 : 2_000_000),
    runs: count('runs', quick ? 1 : 7),
    latencyLines: count('latency-lines', quick ? 60 : 1500, 30),
    slowMs: count('slow-ms', quick ? 500 : 3000, 50),
    reps: count('reps', quick ? 1 : 7),
    startRuns: count('start-runs', quick ? 1 : 30),
    parallel: count('parallel', quick ? 3 : 1),
    jsonFile: given.get('json-file'),
    only: given.has('only') ? new RegExp(given.get('only') as string) : undefined,
  };
  given.delete('only');
  given.delete('json-file');
  const [unknown] = given.keys();
  if (unknown !== undefined) throw new TypeError(`Unknown flag \`--${unknown}\`\n${HELP}`);
  return flags;
}
