// Runs of variants in a fresh Node process: `tsx bench/child.ts '<RunParams as JSON>'` runs one
// and prints its RunResult as one JSON line on stdout (the runner parses the last line);
// `tsx bench/child.ts '[<RunParams>, …]'` runs several, one after the other in this process, and
// prints the array of their results (the smoke test's batches of variants that change the process
// for good, such as hiding `@opentelemetry/api`).
import type { RunParams, RunResult } from './bench-result.js';
import { runVariant } from './variant.js';

const params = JSON.parse(process.argv[2] ?? '{}') as RunParams | RunParams[];

async function runAll(): Promise<RunResult | RunResult[]> {
  if (!Array.isArray(params)) return runVariant(params);
  const results: RunResult[] = [];
  for (const one of params) results.push(await runVariant(one));
  return results;
}

runAll().then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    const names = Array.isArray(params) ? params.map((one) => one.variant).join(', ') : params.variant;
    process.stderr.write(`${names}: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
