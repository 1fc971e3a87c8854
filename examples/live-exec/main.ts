/**
 * `npm run example:live [-- <command> [args…]]`: an app that serves live pages for its runs with
 * `sluice/web` — the run registry (retention, limits), the guarded handler and the page. It starts
 * the command once, prints the page's URL (with its access token), and the page's "Run again"
 * starts another run (at most 4 at once). Without a command it runs a short demo.
 */
import { exec } from '../../src/sources/exec.js';
import { RunRegistry, startWebServer } from '../../src/web/index.js';

const DEMO = [
  'sh',
  '-c',
  'i=1; while [ $i -le 400 ]; do printf "\\033[32m✓\\033[0m step %s of 400\\n" $i; if [ $((i % 25)) -eq 0 ]; then echo "warning at $i" >&2; fi; i=$((i+1)); sleep 0.05; done',
];

const [file = 'sh', ...args] = process.argv.length > 2 ? process.argv.slice(2) : DEMO;
const registry = new RunRegistry({ maxRuns: 4, retainMs: 60_000 });
const start = () =>
  registry.start(exec(file, args, { reject: false }), { command: [file, ...args].join(' ') });
start();
const server = await startWebServer({ registry, port: Number(process.env.PORT ?? 8080), start });
console.log(`live-exec: open ${server.url} (Ctrl-C to stop)`);

const stop = () => {
  // Cancels what still runs (every page says "the server shut down"), then stops serving.
  void registry
    .close()
    .then(() => server.close())
    .then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
