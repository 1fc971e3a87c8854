import { runCli } from './run-cli.js';

// The `sluice` executable. Ctrl-C or a SIGTERM aborts the run, which kills the command's whole
// process group before sluice exits.
const controller = new AbortController();
const stop = (signal: NodeJS.Signals) => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort(new Error(`sluice was interrupted by ${signal}`));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') controller.abort(new Error('the output pipe was closed'));
});

runCli(process.argv.slice(2), process, process.env, controller.signal).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`sluice: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
