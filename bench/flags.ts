/** The runner's settings, from its command line. */
export interface BenchFlags {
  /** One JSON object per line instead of the table. */
  readonly json: boolean;
  /** Also write the JSON lines to this file (with the table on stdout). */
  readonly jsonFile: string | undefined;
  /** Which sizes the unset flags take: `quick` (tiny, a check that the runner works), the default, or `full`. */
  readonly profile: 'quick' | 'default' | 'full';
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
  /** Only variants whose name matches this regular expression (the targets of the others read "not run"). */
  readonly only: RegExp | undefined;
}

const HELP = `usage: npm run bench -- [--json] [--full | --quick] [--lines N] [--runs N] [--latency-lines N]
                        [--slow-ms MS] [--reps N] [--start-runs N] [--parallel N]
                        [--only REGEX]
                        [--json-file FILE]`;

/**
 * The sizes of each profile: the default fits the whole catalogue in about five minutes on two
 * cores; `--full` takes the long runs (about three times as long), whose medians move less;
 * `--quick` only checks that every variant runs (its figures mean nothing).
 */
const PROFILES = {
  quick: { lines: 20_000, runs: 1, latencyLines: 60, slowMs: 500, reps: 1, startRuns: 1, parallel: 3 },
  default: {
    lines: 500_000,
    runs: 3,
    latencyLines: 1000,
    slowMs: 1500,
    reps: 5,
    startRuns: 10,
    parallel: 1,
  },
  full: { lines: 2_000_000, runs: 7, latencyLines: 1500, slowMs: 3000, reps: 7, startRuns: 30, parallel: 1 },
} as const;

/**
 * Parses the runner's flags (`--lines 500000`, `--lines=500000`). `--full` and `--quick` choose
 * the sizes of the flags left unset. Throws a `TypeError` naming a bad flag.
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
    if (name === 'json' || name === 'quick' || name === 'full') given.set(name, 'true');
    else {
      const value = inline ?? argv[++index];
      if (value === undefined) throw new TypeError(`Expected a value after \`--${name}\``);
      given.set(name, value);
    }
  }
  if (given.has('quick') && given.has('full'))
    throw new TypeError('Expected `--quick` or `--full`, not both');
  const profile = given.delete('quick') ? 'quick' : given.delete('full') ? 'full' : 'default';
  const sizes = PROFILES[profile];
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
    profile,
    lines: count('lines', sizes.lines),
    runs: count('runs', sizes.runs),
    latencyLines: count('latency-lines', sizes.latencyLines, 30),
    slowMs: count('slow-ms', sizes.slowMs, 50),
    reps: count('reps', sizes.reps),
    startRuns: count('start-runs', sizes.startRuns),
    parallel: count('parallel', sizes.parallel),
    jsonFile: given.get('json-file'),
    only: given.has('only') ? new RegExp(given.get('only') as string) : undefined,
  };
  given.delete('only');
  given.delete('json-file');
  const [unknown] = given.keys();
  if (unknown !== undefined) throw new TypeError(`Unknown flag \`--${unknown}\`\n${HELP}`);
  return flags;
}
